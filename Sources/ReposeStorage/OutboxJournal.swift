import Foundation
import Repose

/// The lines of an outbox's journal file, as written and as read back.
///
/// `+<key> <json>` stores a write (a ``StoredWrite`` as JSON, which holds no raw line break) and `-<key>` ends
/// it. A key is letters, digits and dashes, so it can neither break a line nor be mistaken for the JSON after it.
/// A last line without its line break was cut short by a killed process and is not read.
struct OutboxJournal {
    /// One stored write still pending: its key and its whole line, line break included.
    struct Entry {
        let key: String
        let line: Data

        /// The write's JSON: the line after `+<key> `, without the line break.
        var json: Data { line.dropFirst(key.utf8.count + 2).dropLast() }
    }

    /// The writes stored and not ended, in the order their lines were written.
    private(set) var pending: [Entry] = []
    /// Whether the file holds anything else: ended writes, their ends, a line cut short or damaged. A journal
    /// with waste is worth writing anew.
    private(set) var hasWaste = false

    /// Reads the lines of `data`, a journal file's contents.
    init(_ data: Data) {
        var order: [String] = []
        var lines: [String: Data] = [:]
        var start = data.startIndex
        while let end = data[start...].firstIndex(of: Self.newline) {
            let line = data[start...end]
            let body = line.dropLast().dropFirst()  // between the kind and the line break
            start = end + 1
            switch line.first {
            case Self.plus:
                if let space = body.firstIndex(of: Self.space), space + 1 < body.endIndex,
                    let key = Self.key(body[..<space])
                {
                    if lines.updateValue(Data(line), forKey: key) == nil { order.append(key) } else { hasWaste = true }
                } else {
                    hasWaste = true  // damaged
                }
            case Self.minus:
                if let key = Self.key(body) { lines[key] = nil }
                hasWaste = true
            default:
                hasWaste = true  // damaged
            }
        }
        if start < data.endIndex { hasWaste = true }  // cut short
        var seen: Set<String> = []  // a key stored again after its end is listed once
        pending = order.compactMap { key in
            guard seen.insert(key).inserted else { return nil }
            return lines[key].map { Entry(key: key, line: $0) }
        }
    }

    /// The line that stores the write `key` as `json`.
    static func line(storing key: String, json: Data) -> Data {
        var line = Data(capacity: key.utf8.count + json.count + 3)
        line.append(plus)
        line.append(contentsOf: key.utf8)
        line.append(space)
        line.append(json)
        line.append(newline)
        return line
    }

    /// The line that ends the write `key`.
    static func line(ending key: String) -> Data {
        Data("-\(key)\n".utf8)
    }

    /// Whether `key` may name a write in the journal: 1 to 64 ASCII letters, digits and dashes.
    static func isKey(_ key: String) -> Bool {
        let bytes = key.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy {
                (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45
            }
    }

    /// `bytes` as a key, if they are one.
    private static func key(_ bytes: Data) -> String? {
        String(data: bytes, encoding: .utf8).flatMap { isKey($0) ? $0 : nil }
    }

    static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let plus = UInt8(ascii: "+")
    private static let minus = UInt8(ascii: "-")
}
