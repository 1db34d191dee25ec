@testable import Repose

/// Task-scoped log settings for tests: the handler or the enabled set changes for the current task and its child
/// tasks only (not for detached tasks or other threads), so suites running in parallel each capture their own
/// lines without touching the global settings.
extension ReposeLog {
    /// Sends the lines logged inside `operation` to `handler`.
    static func withHandler<T>(
        _ handler: @escaping MessageHandler, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async rethrows -> T {
        try await withOverride(Override(handler: handler), isolation: isolation, operation: operation)
    }

    static func withHandler<T>(_ handler: @escaping MessageHandler, operation: () throws -> T) rethrows -> T {
        try withOverride(Override(handler: handler), operation: operation)
    }

    /// Logs `categories`, and only those, inside `operation`.
    static func withEnabled<T>(
        _ categories: Category, isolation: isolated (any Actor)? = #isolation, operation: () async throws -> T
    ) async rethrows -> T {
        try await withOverride(Override(enabled: categories), isolation: isolation, operation: operation)
    }

    static func withEnabled<T>(_ categories: Category, operation: () throws -> T) rethrows -> T {
        try withOverride(Override(enabled: categories), operation: operation)
    }

    private static func withOverride<T>(
        _ override: Override, isolation: isolated (any Actor)?, operation: () async throws -> T
    ) async rethrows -> T {
        settings.update { $0.overrides += 1 }
        defer { settings.update { $0.overrides -= 1 } }
        return try await $currentOverride.withValue(merged(override), operation: operation, isolation: isolation)
    }

    private static func withOverride<T>(_ override: Override, operation: () throws -> T) rethrows -> T {
        settings.update { $0.overrides += 1 }
        defer { settings.update { $0.overrides -= 1 } }
        return try $currentOverride.withValue(merged(override), operation: operation)
    }

    /// Nested scopes keep what the outer one set and the inner one did not.
    private static func merged(_ new: Override) -> Override {
        Override(enabled: new.enabled ?? currentOverride?.enabled, handler: new.handler ?? currentOverride?.handler)
    }
}
