import Foundation
import Repose

/// The layout of one ``FileEntityCache`` file, format version 1:
///
/// ```
/// repose-cache 1 5f0e…c3a1\n            the magic word, the format version, and a checksum of the rest, in ASCII
/// {"key":…,"url":…,…,"bodyLength":N}\n  the header: one line of JSON
/// <N bytes>                            the body, as raw bytes
/// ```
///
/// The checksum (64 bits in hex, see ``checksum(of:)``) covers everything after the first line, so a damaged byte
/// anywhere, header or body, makes the entry a miss rather than different data.
///
/// The header holds the entry's key (partition and URL), its URL, content type, charset, headers, timestamp, the kind
/// of content (`data`, `text`, `json` or `codec`, with the codec's name) and the body's length. A reader accepts a
/// file only if the version is one it knows, the key is the one it asked for (so a hash collision or a foreign file
/// is a miss), and exactly `bodyLength` bytes follow the header (so a cut-off file is a miss).
enum CacheEntryFormat {
    static let magic = "repose-cache"
    static let version = 1

    /// What kind of content the body holds, and so how to turn it back into content.
    enum Kind: String, Codable {
        /// `Data`, stored as is.
        case data
        /// A `String`, stored as UTF-8.
        case text
        /// A `[String: Any]` or `[Any]` of JSON values, stored as JSON.
        case json
        /// A model, stored by the ``CacheCodec`` named in the header.
        case codec
    }

    struct Header: Codable, Equatable {
        var key: String
        var url: String
        var contentType: String
        var charset: String?
        var headers: [String: String]
        var timestamp: Double
        var kind: Kind
        var codec: String?
        var bodyLength: Int
    }

    /// The whole file for `header` and `body`.
    static func encode(_ header: Header, body: Data) -> Data? {
        guard let headerLine = try? JSONEncoder().encode(header) else { return nil }
        var rest = Data(capacity: headerLine.count + 1 + body.count)
        rest.append(headerLine)  // JSONEncoder escapes newlines inside strings: the line ends only here
        rest.append(UInt8(ascii: "\n"))
        rest.append(body)
        var file = Data("\(magic) \(version) \(String(checksum(of: rest[...]), radix: 16))\n".utf8)
        file.append(rest)
        return file
    }

    /// The header and body of `file` if it is a whole entry of this format for `key`; `nil` otherwise.
    static func decode(_ file: Data, key: String) -> (header: Header, body: Data)? {
        guard let (header, bodyStart) = header(of: file), header.key == key else { return nil }
        // A copy that starts at index 0: code that reads the content may assume it does.
        return (header, file.subdata(in: bodyStart..<file.endIndex))
    }

    /// The header of `file`, whatever its key, and where its body starts, if it is a whole entry of this format:
    /// enough to learn its URL without copying its body.
    static func header(of file: Data) -> (header: Header, bodyStart: Data.Index)? {
        let newline = UInt8(ascii: "\n")
        guard let firstEnd = file.firstIndex(of: newline),
            String(decoding: file[file.startIndex..<firstEnd], as: UTF8.self)
                == "\(magic) \(version) \(String(checksum(of: file[(firstEnd + 1)...]), radix: 16))",
            let secondEnd = file[(firstEnd + 1)...].firstIndex(of: newline),
            let header = try? JSONDecoder().decode(Header.self, from: file[(firstEnd + 1)..<secondEnd]),
            header.bodyLength == file.endIndex - (secondEnd + 1)
        else { return nil }
        return (header, secondEnd + 1)
    }

    /// FNV-1a over 64-bit little-endian words (then the remaining bytes): a check against damage, not against an
    /// attacker, and fast enough (a word per step) that a 1 MB entry costs a fraction of reading it.
    static func checksum(of bytes: Data.SubSequence) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var offset = 0
            while offset + 8 <= raw.count {
                hash =
                    (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                    &* 0x100_0000_01b3
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x100_0000_01b3
                offset += 1
            }
            return hash
        }
    }
}
