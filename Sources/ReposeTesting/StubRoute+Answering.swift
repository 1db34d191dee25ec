import Foundation
import Repose

/// Answering held requests by hand: the response is chosen when the test answers, not when the stub is made.
///
/// ```swift
/// let user = network.hold(.get, "https://api.example.com/users/1")
/// let request = resource.load()
/// await user.requested()
/// #expect(resource.isLoading)
/// user.respond(.json(["name": "Ada"]))   // reaches Repose before it returns
/// _ = await request.response
/// ```
///
/// These calls work on any held request, whether the stub was made with ``StubNetworkingProvider/hold(_:)`` or
/// with `stub(…)` and ``held()``. Called on the main actor, as a test usually is, each call hands its answer to
/// Repose before it returns, as ``StubEventStream`` does; ``release()`` instead delivers on the main queue, as a
/// network would. An answer reports no progress of its own: report it with
/// ``reportProgress(_:toHeldAt:)``.
extension StubRoute {
    /// The requests this stub holds right now, oldest first. A cancelled request is no longer held.
    public var heldRequests: [RecordedRequest] {
        store.withLock { state.liveHeld.map(\.snapshot) }
    }

    /// Answers a held request with `response`, whatever the stub's own responses are.
    ///
    /// ```swift
    /// route.respond(.text("first"))                        // the oldest held request
    /// route.respond(.status(404), toHeldAt: 1)             // the one after it
    /// route.respond(.error(URLError(.networkConnectionLost)))
    /// ```
    ///
    /// A body larger than the caller's `maximumResponseSize` fails with `RequestError.Cause.ResponseTooLarge`, as
    /// it would from a stub's own responses.
    ///
    /// - Parameters:
    ///   - response: The answer: any status, headers and body, or a transport error.
    ///   - index: Which held request to answer: 0, the default, is the oldest.
    /// - Returns: Whether there was such a held request.
    @discardableResult
    public func respond(_ response: StubResponse, toHeldAt index: Int = 0) -> Bool {
        store.answer(state, taking: { $0.takeHeld(at: index).map { [$0] } ?? [] }, with: response.result) > 0
    }

    /// Fails every held request with `error`, oldest first, as a network that went away would.
    ///
    /// - Parameter error: The transport error; `URLError(.cancelled)` unless given.
    /// - Returns: How many requests it failed.
    @discardableResult
    public func failHeld(with error: any Error = URLError(.cancelled)) -> Int {
        store.answer(state, taking: { $0.takeHeld(all: true) }, with: .failure(error))
    }

    /// Reports transfer progress on a held request without answering it.
    ///
    /// ```swift
    /// route.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
    /// ```
    ///
    /// - Parameters:
    ///   - progress: The sample, as a network would report it.
    ///   - index: Which held request: 0, the default, is the oldest.
    /// - Returns: Whether there was such a held request.
    @discardableResult
    public func reportProgress(_ progress: TransferProgress, toHeldAt index: Int = 0) -> Bool {
        store.reportProgress(progress, toHeldAt: index, of: state)
    }
}
