import Foundation

/// Looks for a boundary in a stream of chunks, including one that straddles two chunks.
struct BoundaryScanner {
    private let needle: [UInt8]
    /// The last `needle.count - 1` bytes seen, which may begin an occurrence the next chunk completes.
    private var tail: [UInt8] = []

    init(boundary: String) {
        needle = Array(boundary.utf8)
    }

    /// Whether the boundary ends within `chunk`, counting the bytes seen before it.
    mutating func found(in chunk: UnsafeRawBufferPointer) -> Bool {
        guard !needle.isEmpty else { return false }
        let straddling = tail + chunk.prefix(needle.count - 1)
        if straddling.withUnsafeBytes({ Self.contains(needle, in: $0) }) || Self.contains(needle, in: chunk) {
            return true
        }
        tail = Array((tail + chunk.suffix(needle.count - 1)).suffix(needle.count - 1))
        return false
    }

    static func contains(_ needle: [UInt8], in data: Data) -> Bool {
        data.withUnsafeBytes { contains(needle, in: $0) }
    }

    /// A plain search that skips ahead to each occurrence of the needle's first byte.
    static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            guard let hit = haystack[start...last].firstIndex(of: first) else { return false }
            var matched = 1
            while matched < needle.count, haystack[hit + matched] == needle[matched] {
                matched += 1
            }
            if matched == needle.count { return true }
            start = hit + 1
        }
        return false
    }
}
