import Foundation
import Repose

/// Answering held requests by hand: the response is chosen when the test answers, not when the stub is made.
///
/// ```swift
/// let user = network.hold(.get, "https://api.example.com/users/1")
/// let request = resource.load()
/// await user.requested()
/// #expect(resource.isLoading)
/// await user.respond(.json(["name": "Ada"]))   // handed to Repose before it returns
/// _ = await request.response
/// ```
///
/// These calls work on any held request, whether the stub was made with ``StubNetworkingProvider/hold(_:)`` or
/// with `stub(…)` and ``held()``. Each call delivers its answer on the provider's queue, as any delivery, and returns
/// once Repose has it, as ``StubEventStream`` does: a main-actor test that resumes after it finds Repose's work on
/// the main actor done (see ``StubNetworkingProvider``); ``release()`` instead delivers later, as a network would.
/// An answer reports no progress of its own: report it with ``reportProgress(_:toHeldAt:)``.
extension StubRoute {
    /// The requests this stub holds right now, oldest first. A cancelled request is no longer held.
    public var heldRequests: [RecordedRequest] {
        store.withLock { state.liveHeld.map(\.snapshot) }
    }

    /// Answers a held request with `response`, whatever the stub's own responses are.
    ///
    /// ```swift
    /// await route.respond(.text("first"))                        // the oldest held request
    /// await route.respond(.status(404), toHeldAt: 1)             // the one after it
    /// await route.respond(.error(URLError(.networkConnectionLost)))
    /// ```
    ///
    /// - Parameters:
    ///   - response: The answer: any status, headers and body, or a transport error.
    ///   - index: Which held request to answer: 0, the default, is the oldest.
    /// - Returns: Whether there was such a held request.
    @discardableResult
    public func respond(_ response: StubResponse, toHeldAt index: Int = 0) async -> Bool {
        await store.answer(state, taking: { $0.takeHeld(at: index).map { [$0] } ?? [] }, with: response.result) > 0
    }

    /// Answers the `count` oldest held requests with `response`, oldest first, in one delivery: a crowd of
    /// requests answered alike without a wait for each.
    ///
    /// ```swift
    /// await route.respond(.status(401), toOldest: 199)
    /// ```
    ///
    /// - Returns: How many requests it answered: `count`, or fewer if fewer were held.
    @discardableResult
    public func respond(_ response: StubResponse, toOldest count: Int) async -> Int {
        await store.answer(state, taking: { $0.takeOldest(count) }, with: response.result)
    }

    /// Fails every held request with `error`, oldest first, as a network that went away would.
    ///
    /// - Parameter error: The transport error; `URLError(.cancelled)` unless given.
    /// - Returns: How many requests it failed.
    @discardableResult
    public func failHeld(with error: any Error = URLError(.cancelled)) async -> Int {
        await store.answer(state, taking: { $0.takeHeld(all: true) }, with: .failure(error))
    }

    /// Reports transfer progress on a held request without answering it.
    ///
    /// ```swift
    /// await route.reportProgress(TransferProgress(bytesReceived: 50, bytesExpectedToReceive: 100))
    /// ```
    ///
    /// - Parameters:
    ///   - progress: The sample, as a network would report it.
    ///   - index: Which held request: 0, the default, is the oldest.
    /// - Returns: Whether there was such a held request.
    @discardableResult
    public func reportProgress(_ progress: TransferProgress, toHeldAt index: Int = 0) async -> Bool {
        await store.reportProgress(progress, toHeldAt: index, of: state)
    }
}
