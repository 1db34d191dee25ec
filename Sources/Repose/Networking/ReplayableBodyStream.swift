import Foundation

/// A request body stream that the provider can start again and measure, whatever body it produces.
///
/// The transport knows bodies only through this: a redirect that keeps the body (rule W1) sends a new stream of the
/// same bytes from their start, upload progress reads the exact length where URLSession sends the body chunked and
/// cannot know it, and a read that fails part-way sets `streamError`, which the provider reports as the request's
/// error instead of the transport's bare abort (rule W9). A stream the app made itself is sent once, as it is.
protocol ReplayableBodyStream: InputStream {
    /// The body's exact length in bytes.
    var length: Int64 { get }
    /// Makes a new stream of the same bytes, from their start: the provider asks the task's original stream for
    /// one on a redirect, on the session's queue.
    var replay: @Sendable () -> InputStream { get }
}
