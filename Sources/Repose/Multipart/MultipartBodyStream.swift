import Foundation

/// Produces a ``MultipartBody`` as URLSession reads it: in-memory segments are copied out, files are read a chunk
/// at a time, so memory stays flat however large the files are.
///
/// A new stream is made for every attempt of a request (a retry or a repeat reads the files again). A file that
/// ended early, grew, or turned out to contain the boundary fails the stream, and so the transfer, rather than send
/// a body the server would read wrongly.
final class MultipartBodyStream: InputStream, ReplayableBodyStream {
    /// The largest piece read from a file at once.
    private static let chunkSize = 64 * 1024

    /// The body this stream reads.
    let body: MultipartBody
    private var segmentIndex = 0
    /// How far into the current segment the stream has read.
    private var offset: Int64 = 0
    private var file: FileHandle?
    private var scanner: BoundaryScanner
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    /// The body's exact length, for upload progress where URLSession does not know it.
    var length: Int64 { body.length }
    /// A new stream of the body, reading its files again, for a redirect that resends it.
    var replay: @Sendable () -> InputStream {
        { [body] in MultipartBodyStream(body: body) }
    }

    init(body: MultipartBody) {
        self.body = body
        self.scanner = BoundaryScanner(boundary: body.boundary)
        super.init(data: Data())
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        try? file?.close()
        file = nil
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }
    override var hasBytesAvailable: Bool { status == .open }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) -> Int {
        guard status == .open, maxLength > 0 else { return status == .atEnd ? 0 : -1 }
        while segmentIndex < body.segments.count {
            let count: Int
            do {
                count = try readSegment(body.segments[segmentIndex], into: buffer, maxLength: maxLength)
            } catch {
                fail(error)
                return -1
            }
            if count > 0 { return count }
            nextSegment()
        }
        status = .atEnd
        return 0
    }

    /// Copies the next bytes of `segment` into `buffer`; 0 when the segment is done.
    private func readSegment(
        _ segment: MultipartBody.Segment, into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int
    ) throws -> Int {
        switch segment {
        case .bytes(let data):
            let start = Int(offset)
            let count = min(maxLength, data.count - start)
            guard count > 0 else { return 0 }
            data.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(start: buffer, count: count).copyBytes(from: bytes[start..<start + count])
            }
            offset += Int64(count)
            return count
        case .file(let url, let size):
            guard let handle = file ?? (try? FileHandle(forReadingFrom: url)) else {
                throw StreamFailure.fileChanged(url)  // removed, or made unreadable, since the body was laid out
            }
            file = handle
            let wanted = Int(min(Int64(min(maxLength, Self.chunkSize)), size - offset))
            guard wanted > 0 else {
                // The declared size is sent; a file that has grown since would be sent cut short.
                guard try handle.read(upToCount: 1)?.isEmpty ?? true else { throw StreamFailure.fileChanged(url) }
                return 0
            }
            // Read straight into URLSession's buffer: no allocation per chunk, however large the file.
            let count = try Self.read(handle, into: buffer, count: wanted)
            guard count > 0 else { throw StreamFailure.fileChanged(url) }
            if scanner.found(in: UnsafeRawBufferPointer(start: buffer, count: count)) {
                throw StreamFailure.boundaryInFile(url)
            }
            offset += Int64(count)
            return count
        }
    }

    /// Up to `count` bytes of the file, retrying a read a signal interrupted.
    private static func read(_ handle: FileHandle, into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        for _ in 0..<100 {  // bounded: a read interrupted a hundred times in a row is a failure
            let result = Foundation.read(handle.fileDescriptor, buffer, count)
            if result >= 0 { return result }
            if errno != EINTR { break }
        }
        throw StreamFailure.unreadable
    }

    private func nextSegment() {
        try? file?.close()
        file = nil
        offset = 0
        segmentIndex += 1
        scanner = BoundaryScanner(boundary: body.boundary)
    }

    private func fail(_ error: any Error) {
        try? file?.close()
        file = nil
        failure = error
        status = .error
    }

    /// Why a stream stopped part-way; the message names the file (rule W9).
    enum StreamFailure: Error, LocalizedError {
        /// The file is shorter or longer than when the body was laid out, or is gone.
        case fileChanged(URL)
        case boundaryInFile(URL)
        case unreadable

        var errorDescription: String? {
            switch self {
            case .fileChanged(let url):
                "The file “\(url.lastPathComponent)” changed or was removed while it was being uploaded."
            case .boundaryInFile(let url):
                "The file “\(url.lastPathComponent)” could not be uploaded: it contains the form's boundary."
            case .unreadable:
                "A file could not be read for upload."
            }
        }
    }
}
