import Foundation
import Testing

@testable import Repose

/// A service over `URLSessionProvider` whose base URL is a loopback server of its own, and bounded waits that
/// record an issue instead of hanging when a response never comes.
///
/// Each test suite instance makes one: the server starts with it and stops when it is released.
@MainActor
final class IntegrationFixture {
    let server: LoopbackServer
    let provider = URLSessionProvider()
    let service: Service

    init() async throws {
        server = try await LoopbackServer()
        service = Service(baseURL: "http://127.0.0.1:\(server.port)", options: .init(networking: provider))
        LifetimeCheck.track(service)
    }

    /// How long any one wait may take before the test fails instead of hanging (see ``Patience``). Responses are
    /// delivered on the main actor, which the rest of the suite, running in parallel, can keep busy for seconds.
    static let timeout = Patience.wait

    /// Waits for `request` to complete (through `await request.responseInfo`) and returns what it completed with;
    /// `nil`, with an issue recorded and the request cancelled, if it did not complete within `timeout`.
    func completion(
        of request: Request, within timeout: Duration = IntegrationFixture.timeout,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ResponseInfo? {
        var waiting: Task<Void, Never>?
        let info = await Self.firstValue(
            of: "the response to \(request.requestDescription)", within: timeout, sourceLocation: sourceLocation
        ) { deliver in
            waiting = Task { @MainActor in deliver(await request.responseInfo) }
        }
        // Cancelling the waiting task cancels the request, so a request that timed out stops here.
        if info == nil { waiting?.cancel() }
        return info
    }

    /// Waits for the first progress report of `request`; `nil`, with an issue recorded, if none came in time.
    func firstProgress(
        of request: Request, within timeout: Duration = IntegrationFixture.timeout,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Double? {
        await Self.firstValue(
            of: "progress of \(request.requestDescription)", within: timeout, sourceLocation: sourceLocation
        ) { deliver in
            request.onProgress(deliver)
        }
    }

    /// Suspends until `register`'s callback delivers a value (the first one counts) or `timeout` passes.
    private static func firstValue<Value>(
        of what: String, within timeout: Duration, sourceLocation: SourceLocation,
        _ register: (@escaping @MainActor (Value) -> Void) -> Void
    ) async -> Value? {
        let once = ResumeFirst<Value>()
        let transfer = await withCheckedContinuation { continuation in
            once.continuation = continuation
            register { value in once.resume(UncheckedTransfer(value)) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { once.resume(nil) }
        }
        guard let transfer else {
            Issue.record("timed out after \(timeout) waiting for \(what)", sourceLocation: sourceLocation)
            return nil
        }
        return transfer.value
    }
}

/// Resumes a continuation with the first value it is given and ignores the rest.
private final class ResumeFirst<Value>: @unchecked Sendable {
    // `@unchecked Sendable`: `pending` is only touched under `lock`.
    private let lock = NSLock()
    private var pending: CheckedContinuation<UncheckedTransfer<Value>?, Never>?

    var continuation: CheckedContinuation<UncheckedTransfer<Value>?, Never>? {
        get { lock.withLock { pending } }
        set { lock.withLock { pending = newValue } }
    }

    func resume(_ value: UncheckedTransfer<Value>?) {
        let taken = lock.withLock {
            defer { pending = nil }
            return pending
        }
        taken?.resume(returning: value)
    }
}

extension Duration {
    /// This duration in seconds, for Dispatch deadlines.
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// What the loopback server's `/echo` route answered, read from an entity whatever the pipeline made of the
/// body: raw bytes, text, or parsed JSON.
struct EchoedRequest: Decodable {
    var method: String
    var path: String
    var query: String
    var headers: [String: String]
    var body: String
    var bodyLength: Int

    init?(_ entity: Entity<Any>?) {
        guard let bytes = entity?.bodyBytes,
            let decoded = try? JSONDecoder().decode(EchoedRequest.self, from: bytes)
        else { return nil }
        self = decoded
    }
}

extension Entity<Any> {
    /// The content as bytes, however far the pipeline parsed it: `Data` as is, text in UTF-8, JSON re-encoded.
    var bodyBytes: Data? {
        switch content {
        case let data as Data:
            return data
        case let text as String:
            return Data(text.utf8)
        case let dictionary as [String: Any]:
            return try? JSONSerialization.data(withJSONObject: dictionary)
        case let array as [Any]:
            return try? JSONSerialization.data(withJSONObject: array)
        default:
            return nil
        }
    }

    /// The content as UTF-8 text, however far the pipeline parsed it.
    var bodyText: String? {
        bodyBytes.map { String(decoding: $0, as: UTF8.self) }
    }
}
