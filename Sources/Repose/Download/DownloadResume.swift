import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a download that stopped early keeps so that the next download to the same destination continues where it
/// stopped (rule Q3): its bytes, in a private file beside the destination, and a note of what they are, the URL they
/// came from and the validator that proves the server still has the same body.
///
/// Both are named after the destination (a hash of its path), so the next download there finds them, and hidden from
/// directory listings as the temporary files are. A download that cannot claim them (another holds the lock, the note
/// is unreadable or names another URL) starts from the first byte; what nobody resumes is removed by the clean-up of
/// the folder (``DownloadLeftovers``, rule T8).
struct DownloadResume: Codable, Equatable {
    /// A hash of the URL the bytes came from, as sent: enough to tell it from another, without writing a URL that
    /// may carry a secret to disk.
    var url: String
    /// A strong `ETag`, or else the `Last-Modified` date, to send as `If-Range`.
    var validator: String

    /// The names of the bytes and the note for `destination`.
    static func names(for destination: URL) -> (bytes: String, note: String) {
        let stem = ".repose-download-\(hash(destination.standardizedFileURL.path))"
        return (stem + DownloadLeftovers.resumableSuffix, stem + DownloadLeftovers.noteSuffix)
    }

    /// FNV-1a, 64 bits, of `text`, in hex: stable across launches and platforms.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The validator of `head` that makes its bytes resumable: a strong `ETag` or a `Last-Modified` date, and only
    /// when the server said it serves byte ranges of a body sent as it is stored (a range of a compressed body would
    /// count bytes the file never sees).
    static func validator(of head: NetworkResponse) -> String? {
        guard let ranges = head.header("Accept-Ranges"), ranges.lowercased().contains("bytes"),
            (head.header("Content-Encoding") ?? "identity").lowercased() == "identity"
        else { return nil }
        if let etag = head.header("ETag"), !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return head.header("Last-Modified")
    }

    /// The note in `folder` named `name`, if it is a small regular file that decodes.
    static func read(named name: String, in folder: URL) -> DownloadResume? {
        let path = folder.appendingPathComponent(name).path
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size < 64 * 1024,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? JSONDecoder().decode(DownloadResume.self, from: data)
    }

    /// Writes the note whole and private (0600), replacing any; `false` if it cannot.
    func save(named name: String, in folder: URL) -> Bool {
        guard let data = try? JSONEncoder().encode(self) else { return false }
        let temporary = folder.appendingPathComponent(name + ".new").path
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { return false }
        _ = fchmod(file, 0o600)
        let written = data.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
        guard written == data.count, rename(temporary, folder.appendingPathComponent(name).path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}

extension NetworkResponse {
    /// The value of the header `name`, whatever its case.
    func header(_ name: String) -> String? {
        let lowercased = name.lowercased()
        return headers.first { $0.key.lowercased() == lowercased }?.value
    }
}
