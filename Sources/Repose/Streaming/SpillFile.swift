import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a streamed body waits once more of it is unread than its stream keeps in memory (rule U4): a file with no
/// name, so that memory stays flat however slowly the app reads.
///
/// The file is created private (mode 0600, `O_EXCL`, no link followed) in the temporary folder and unlinked at once:
/// nobody else can open it, and the system frees it when the descriptor closes, even when the process is killed.
/// Bytes are written at the end and read from the front; once all are read, the file is emptied.
///
/// Not thread-safe: its ``ChunkStream`` calls it only while holding its lock.
final class SpillFile {
    private let descriptor: Int32
    private var writeOffset: Int64 = 0
    private var readOffset: Int64 = 0

    /// Creates the file; throws ``RequestError/Cause/StreamBufferFailed`` when the system refuses.
    init() throws {
        let folder = FileManager.default.temporaryDirectory
        let path = folder.appendingPathComponent(".repose-stream-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw RequestError.Cause.StreamBufferFailed(errorNumber: errno) }
        _ = fchmod(descriptor, 0o600)
        unlink(path)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// How many written bytes are not read yet.
    var unreadCount: Int { Int(writeOffset - readOffset) }

    /// Adds `data` after what was written before.
    func write(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            guard var pointer = buffer.baseAddress else { return }
            var left = buffer.count
            while left > 0 {
                let written = pwrite(descriptor, pointer, left, off_t(writeOffset))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw RequestError.Cause.StreamBufferFailed(errorNumber: errno)
                }
                left -= written
                pointer += written
                writeOffset += Int64(written)
            }
        }
    }

    /// The next unread bytes, at most `count` of them.
    func read(upTo count: Int) throws -> Data {
        var data = Data(count: min(count, unreadCount))
        let filled = try data.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var filled = 0
            while filled < buffer.count {
                let read = pread(descriptor, base + filled, buffer.count - filled, off_t(readOffset) + off_t(filled))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { throw RequestError.Cause.StreamBufferFailed(errorNumber: read < 0 ? errno : EIO) }
                filled += read
            }
            return filled
        }
        readOffset += Int64(filled)
        if readOffset == writeOffset {
            (readOffset, writeOffset) = (0, 0)
            _ = ftruncate(descriptor, 0)
        }
        return data
    }
}
