import Foundation

/// What a response's body becomes as it arrives: bytes in memory (``MemoryBody``), a file (`DownloadFile`), an event
/// stream's events (`EventStreamReader`). A request's ``TransferAttempt`` is what the networking provider talks to;
/// it hands the body to its sink and does everything else (progress, metrics, the way back to the main actor).
///
/// The attempt calls `begin`, `append` and `end` in order, one at a time, on the provider's thread (a session's
/// delegate queue that other transfers share), so a sink only copies, writes or parses there: anything of the app's
/// runs elsewhere. `discard` may come from the main actor at any moment, while an `append` runs.
protocol BodySink: AnyObject, Sendable {
    /// Whether the body of an error response (a status of 400 or more) comes here. When not, the attempt reads it into
    /// memory instead, as a load's, for the request's ``RequestError``: a download's file never holds an error page.
    var takesErrorBodies: Bool { get }
    /// The status and headers arrived. Throws to refuse the body (one announced over a limit, a stream that is not
    /// an event stream); returns what the main actor hears of it at once, if anything.
    func begin(_ head: NetworkResponse) throws -> BodyNews?
    /// The next piece of the body arrived. Throws to stop the transfer; returns what the main actor hears of it.
    func append(_ bytes: Data) throws -> BodyNews?
    /// The body is complete: what the response is. Throws when the body cannot become it (a file not moved into
    /// place).
    func end(_ head: NetworkResponse) throws -> BodyEnd
    /// The transfer failed or was cancelled: let go of what was kept (a temporary file). Safe to call twice.
    func discard()
}

/// What the main actor hears from a body while it arrives: an event stream's opening and its events. It runs in the
/// request's delivery, in order with its progress and before its outcome, unless the request was cancelled.
typealias BodyNews = @MainActor @Sendable () -> Void

/// What a complete body is, as its sink says.
enum BodyEnd {
    /// The whole response, for the request's ``ResponseProcessor`` (status, 304, the pipeline).
    case whole(NetworkResponse)
    /// What the body became (a file's URL, an event stream's empty end): the content of the request's entity, with
    /// the response's headers.
    case content(Any)
}
