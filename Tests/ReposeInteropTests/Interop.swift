import Foundation
import Repose
import Testing

/// Services over the real `URLSessionProvider` aimed at the interop servers, and a bounded wait for a request.
@MainActor
enum Interop {
    /// A service whose base URL is `server`, over a provider of its own (`keepsCookies` for a cookie jar).
    static func service(_ server: URL?, keepsCookies: Bool = false) throws -> Service {
        let server = try #require(server, "the interop server's address is not set")
        return Service(
            baseURL: server.absoluteString,
            options: .init(networking: URLSessionProvider(keepsCookies: keepsCookies)))
    }

    /// How long a request may take before the test fails instead of hanging: as long as the other suites' bound on a
    /// wait, since a loaded machine can hold a response back for many seconds.
    static let patience: TimeInterval = 60

    /// What `request` completed with; `nil`, with an issue recorded and the request cancelled, if it did not
    /// complete within ``patience``.
    static func outcome(
        of request: Request, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ResponseInfo? {
        let timedOut = Flag()
        // A bound, not a pause: cancelling makes the awaited response arrive at once.
        let watchdog = Task { @MainActor in
            try? await Task.sleep(for: .seconds(patience))
            guard !Task.isCancelled else { return }
            timedOut.isSet = true
            request.cancel()
        }
        let info = await request.responseInfo
        watchdog.cancel()
        guard !timedOut.isSet else {
            Issue.record("no response within \(patience) s", sourceLocation: sourceLocation)
            return nil
        }
        return info
    }

    /// Whether the watchdog fired.
    @MainActor
    private final class Flag {
        var isSet = false
    }

    /// The entity `request` succeeded with; `nil`, with an issue recorded, on a failure or a timeout.
    static func entity(
        of request: Request, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Entity<Any>? {
        guard let info = await outcome(of: request, sourceLocation: sourceLocation) else { return nil }
        switch info.response {
        case .success(let entity):
            return entity
        case .failure(let error):
            Issue.record(
                "expected data, got \(error.userMessage) (\(String(describing: error.cause)))",
                sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The error `request` failed with; `nil`, with an issue recorded, on a success or a timeout.
    static func error(
        of request: Request, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RequestError? {
        guard let info = await outcome(of: request, sourceLocation: sourceLocation) else { return nil }
        switch info.response {
        case .success(let entity):
            Issue.record("expected an error, got \(entity.contentType)", sourceLocation: sourceLocation)
            return nil
        case .failure(let error):
            return error
        }
    }
}
