extension ReposeLog {
    /// Settings that apply to one task and its child tasks; `nil` fields fall back to the global settings.
    struct Override: Sendable {
        var enabled: Category?
        var handler: MessageHandler?
    }

    @TaskLocal static var currentOverride: Override?

    /// Sends the log lines of `operation` to `handler` instead of ``messageHandler``, for the current task only.
    ///
    /// The override follows the task: child tasks and `Task { }` blocks started inside `operation` inherit it;
    /// detached tasks and other threads keep the global handler. That makes it the tool for capturing Repose's
    /// log lines in a test while other tests run in parallel:
    ///
    /// ```swift
    /// let lines = Lines()  // your own thread-safe list
    /// await ReposeLog.withEnabled(.all) {
    ///     await ReposeLog.withHandler({ _, message in lines.append(message) }) {
    ///         await resource.load().responseInfo
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - handler: Receives the lines logged inside `operation`.
    ///   - isolation: The actor `operation` runs on; the caller's, by default.
    ///   - operation: The code whose lines `handler` receives.
    /// - Returns: What `operation` returns.
    public static func withHandler<T>(
        _ handler: @escaping MessageHandler,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async rethrows -> T {
        try await withOverride(Override(handler: handler), isolation: isolation, operation: operation)
    }

    /// Sends the log lines of `operation` to `handler`, for the current task only; the synchronous variant.
    public static func withHandler<T>(_ handler: @escaping MessageHandler, operation: () throws -> T) rethrows -> T {
        try withOverride(Override(handler: handler), operation: operation)
    }

    /// Logs the categories in `categories`, and only those, while `operation` runs on the current task.
    ///
    /// It replaces the global ``enabled`` set for this task and its child tasks, and leaves every other task
    /// alone. Like ``withHandler(_:isolation:operation:)``, it does not reach detached tasks or other threads.
    ///
    /// - Parameters:
    ///   - categories: The categories to log inside `operation`.
    ///   - isolation: The actor `operation` runs on; the caller's, by default.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returns.
    public static func withEnabled<T>(
        _ categories: Category,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async rethrows -> T {
        try await withOverride(Override(enabled: categories), isolation: isolation, operation: operation)
    }

    /// Logs only `categories` while `operation` runs on the current task; the synchronous variant.
    public static func withEnabled<T>(_ categories: Category, operation: () throws -> T) rethrows -> T {
        try withOverride(Override(enabled: categories), operation: operation)
    }

    private static func withOverride<T>(
        _ override: Override,
        isolation: isolated (any Actor)?,
        operation: () async throws -> T
    ) async rethrows -> T {
        settings.beginOverride()
        defer { settings.endOverride() }
        return try await $currentOverride.withValue(merged(override), operation: operation, isolation: isolation)
    }

    private static func withOverride<T>(_ override: Override, operation: () throws -> T) rethrows -> T {
        settings.beginOverride()
        defer { settings.endOverride() }
        return try $currentOverride.withValue(merged(override), operation: operation)
    }

    /// Nested overrides keep what the outer one set and the inner one did not.
    private static func merged(_ override: Override) -> Override {
        Override(
            enabled: override.enabled ?? currentOverride?.enabled,
            handler: override.handler ?? currentOverride?.handler)
    }
}
