import Foundation

/// The error a ``StubNetworkingProvider`` completes a request with when the test set it up wrongly: no stub
/// matched the request, or a stub's response could not be built.
///
/// The provider also records a test failure when this happens, so the test fails with a clear message while the
/// code under test sees an ordinary transport error and fails gracefully.
///
/// ```swift
/// #expect((error as? StubError)?.reason == .unmatchedRequest)
/// ```
public struct StubError: Error, LocalizedError, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// No stub matched the request.
        case unmatchedRequest
        /// A stub's response could not be built (for example, JSON with a value JSON cannot hold).
        case invalidStub
    }

    /// What went wrong.
    public let reason: Reason
    /// A description of the problem, naming the request and the stubs there were.
    public let message: String
    /// The request that no stub matched, for ``Reason/unmatchedRequest``.
    public let request: RecordedRequest?

    /// Creates an error.
    public init(reason: Reason, message: String, request: RecordedRequest? = nil) {
        self.reason = reason
        self.message = message
        self.request = request
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }

    /// The message.
    public var description: String { message }
}
