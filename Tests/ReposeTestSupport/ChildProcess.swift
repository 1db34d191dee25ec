import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Runs `executable` to its end and returns its exit status and standard output; `input`, if given, is its
    /// standard input. Blocks: call it through ``offTheTestThreads(_:)``. A child still running after `timeout`
    /// seconds is terminated, so the wait is bounded.
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String], input: String? = nil,
        timeout: TimeInterval = 60
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe()
        process.standardOutput = stdout
        let stdin = input.map { _ in Pipe() }
        if let stdin { process.standardInput = stdin }
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Starts `executable`, kills it with `SIGKILL` once it prints a line that starts with `line` (or after `timeout`
    /// seconds, whichever comes first), and returns what it printed. Blocks: call it through
    /// ``offTheTestThreads(_:)``.
    static func killOnLine(
        _ executable: URL, arguments: [String], line: String, timeout: TimeInterval = 120
    ) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer {
            watchdog.cancel()
            process.waitUntilExit()
        }
        var printed = ""
        let reader = stdout.fileHandleForReading
        while true {  // bounded: the pipe ends when the child dies, by the kill below or the watchdog
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
            if printed.split(separator: "\n").contains(where: { $0.hasPrefix(line) }) {
                kill(pid, SIGKILL)
            }
        }
        return printed
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
