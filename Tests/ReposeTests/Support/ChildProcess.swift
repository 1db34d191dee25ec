import Foundation
import Testing

/// The helper executables some tests run as child processes; SwiftPM builds them beside the test bundle.
enum ChildProcess {
    static func executable(named name: String) throws -> URL {
        #if os(Linux)
        let tests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        let tests = try #require(Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }).bundleURL
        #endif
        let executable = tests.deletingLastPathComponent().appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build \(name) first")
        return executable
    }

    /// Runs `work`, which blocks on a child process, on a thread of its own: blocking the main thread or a thread
    /// of the cooperative pool (two on a two-core machine) would stall every other test meanwhile.
    static func offTheTestThreads<Value: Sendable>(
        _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
