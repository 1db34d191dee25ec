import Foundation

/// A body kept in memory, up to a size: a load's, a write's, and any request's error response.
///
/// Safe (`@unchecked Sendable`): its variables are touched only by the attempt's calls, which come one at a time;
/// `discard` touches nothing.
final class MemoryBody: BodySink, @unchecked Sendable {
    /// The most of an error response's body kept for a download's or an event stream's ``RequestError``: what a
    /// problem document or an error page needs.
    static let errorBodyLimit = 64 * 1024
    /// The most body bytes reserved up front on the word of a `Content-Length` header.
    private static let maximumReservation = 16 * 1024 * 1024

    let maximumSize: Int
    /// Whether a body past `maximumSize` is cut there rather than failing the request: an error's page is only
    /// read for its message.
    private let truncates: Bool
    /// Whether a `Content-Length` announces a body that comes: not for the answer to a HEAD, a 204 or a 304.
    private let isHead: Bool
    private var body = Data()
    /// The body's length as announced, within the limit: room made for it once the first piece arrives.
    private var announced = 0

    var takesErrorBodies: Bool { true }

    init(maximumSize: Int, truncates: Bool = false, isHead: Bool = false) {
        self.maximumSize = maximumSize
        self.truncates = truncates
        self.isHead = isHead
    }

    /// Refuses a body announced larger than the limit before any of it arrives (a `Content-Length` counts encoded
    /// bytes, fewer than the decoded ones the limit counts for gzip: a body announced too large is too large), and
    /// notes the size of one announced within it, to make room for it at once.
    func begin(_ head: NetworkResponse) throws -> BodyNews? {
        guard !isHead, head.statusCode != 204, head.statusCode != 304, let length = head.contentLength else {
            return nil
        }
        if length > maximumSize, !truncates {
            throw RequestError.Cause.ResponseTooLarge(maximumSize: maximumSize)
        }
        announced = min(length, maximumSize, Self.maximumReservation)
        return nil
    }

    /// Keeps `bytes`, unless the body would pass the limit: then the request fails (or, truncating, the rest is
    /// dropped).
    func append(_ bytes: Data) throws -> BodyNews? {
        guard bytes.count <= maximumSize - body.count else {
            if !truncates { throw RequestError.Cause.ResponseTooLarge(maximumSize: maximumSize) }
            body.append(bytes.prefix(maximumSize - body.count))
            return nil
        }
        if body.isEmpty {
            body = bytes  // the whole body often arrives at once: kept instead of copied
            if announced > bytes.count { body.reserveCapacity(announced) }
        } else {
            body.append(bytes)
        }
        return nil
    }

    func end(_ head: NetworkResponse) -> BodyEnd {
        var whole = head
        whole.body = body
        body = Data()
        return .whole(whole)
    }

    func discard() {}
}

extension NetworkResponse {
    /// The length the `Content-Length` header announces, if it is a number.
    var contentLength: Int? {
        headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) }
    }
}
