// A child process for the cache crash test (CacheCrashTests): it writes entries to a FileEntityCache as fast as it
// can, printing a line before and after each write, until the test kills it with SIGKILL.
//
// Usage: repose-cache-writer <directory>
//
// Entry `k` (0..<keyCount) at version `v` holds `size(k, v)` bytes, each equal to `UInt8(v % 251)`, so the test can
// tell a whole entry from a torn one by its content alone.
import Foundation
import Repose
import ReposeStorage

let keyCount = 4

@MainActor
func run() {
    guard CommandLine.arguments.count == 2 else {
        FileHandle.standardError.write(Data("usage: repose-cache-writer <directory>\n".utf8))
        exit(2)
    }
    let cache = FileEntityCache(directory: URL(fileURLWithPath: CommandLine.arguments[1]))
    let service = Service(baseURL: "https://writer.test")
    let keys = (0..<keyCount).compactMap { cache.key(for: service.resource("/entry/\($0)")) }
    for version in 1...100_000 {  // bounded: the test kills it long before
        let index = version % keyCount
        let size = CacheWriterPattern.size(entry: index, version: version)
        let content = Data(repeating: CacheWriterPattern.byte(version: version), count: size)
        // Announced just before the write, so that the test can kill the process during one rather than between.
        FileHandle.standardOutput.write(Data("writing \(version)\n".utf8))
        cache.writeEntity(
            Entity<Any>(content: content, contentType: "application/octet-stream", timestamp: Double(version)),
            forKey: keys[index])
        FileHandle.standardOutput.write(Data("wrote \(version)\n".utf8))  // unbuffered: the test sees it at once
    }
}

/// The content rule the test checks entries against.
enum CacheWriterPattern {
    static func size(entry: Int, version: Int) -> Int { 200_000 + (version * 7919 + entry * 104_729) % 900_000 }
    static func byte(version: Int) -> UInt8 { UInt8(version % 251) }
}

MainActor.assumeIsolated { run() }
