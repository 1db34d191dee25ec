import Foundation

extension LoopbackServer {
    /// Reads the script's standard output on a thread of its own until it ends: the first line (the port) goes to
    /// `first`, every later `mark NAME` line to `marks`. The thread holds the pipe and `marks`, never the server.
    static func readLines(
        of handle: FileHandle, first: CheckedContinuation<String?, Never>, then marks: Marks
    ) {
        Thread {
            var pending = Data()
            var portLine: CheckedContinuation<String?, Never>? = first
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                        .trimmingCharacters(in: .whitespaces)
                    pending.removeSubrange(...newline)
                    if let waiting = portLine {
                        portLine = nil
                        waiting.resume(returning: line)
                    } else if line.hasPrefix("mark ") {
                        marks.record(String(line.dropFirst("mark ".count)))
                    }
                }
            }
            portLine?.resume(returning: nil)
        }.start()
    }

    /// The marks a server printed, and the tests waiting for one.
    final class Marks: @unchecked Sendable {
        // `@unchecked Sendable`: both properties are only touched under `lock`.
        private let lock = NSLock()
        private var seen: Set<String> = []
        private var waiters: [(name: String, resume: @Sendable (Bool) -> Void)] = []

        func record(_ name: String) {
            let woken = lock.withLock {
                seen.insert(name)
                let woken = waiters.filter { $0.name == name }
                waiters.removeAll { $0.name == name }
                return woken
            }
            for waiter in woken {
                waiter.resume(true)
            }
        }

        /// Whether `name` was marked, now or within `timeout`.
        func wait(for name: String, within timeout: Duration) async -> Bool {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let once = ResumeOnce(continuation)
                let alreadySeen = lock.withLock {
                    if seen.contains(name) { return true }
                    waiters.append((name, once.resume))
                    return false
                }
                if alreadySeen {
                    once.resume(true)
                    return
                }
                let (seconds, attoseconds) = timeout.components
                let delay = Double(seconds) + Double(attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { once.resume(false) }
            }
        }
    }
}
