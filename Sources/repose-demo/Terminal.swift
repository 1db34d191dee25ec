import Foundation

/// The terminal the demo talks to: whether a person is typing, the lines they type, and how output is written.
@MainActor
enum Terminal {
    /// Whether the prompt is the last thing written, waiting for a command.
    static var isPrompting = false

    /// Whether standard input is a terminal, so that the demo takes commands instead of running its tour.
    nonisolated static var isInteractive: Bool { isatty(0) != 0 }

    /// Whether standard output is a terminal, so that a progress bar may redraw itself in place.
    nonisolated static var redrawsInPlace: Bool { isatty(1) != 0 }

    /// The lines typed on standard input, without their newlines, until end of input (Ctrl-D).
    ///
    /// Reading blocks, so it happens on a thread of its own; the lines arrive wherever they are awaited. It reads
    /// the file descriptor, not C's `stdin`: `readLine()` would hold `stdin`'s lock while it waits, and the
    /// `fflush(nil)` that shows each line of output would wait for that lock, and so for the next keystroke.
    nonisolated static func lines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                var pending = Data()
                while case let chunk = FileHandle.standardInput.availableData, !chunk.isEmpty {
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                        pending.removeSubrange(...newline)
                    }
                }
                if !pending.isEmpty { continuation.yield(String(decoding: pending, as: UTF8.self)) }
                continuation.finish()
            }
            reader.start()
        }
    }

    /// Shows the prompt, without a newline.
    static func prompt() {
        write("repose> ")
        isPrompting = true
    }

    /// Writes `text` as it is and flushes it, for prompts and bars that stay on their line.
    static func write(_ text: String) {
        print(text, terminator: "")
        fflush(nil)
    }
}

/// Prints one line of what the demo shows, indented under the command that caused it, and flushes it: a line may
/// come while the prompt waits (a status line whose data just turned stale), and must show at once. Such a line
/// takes the prompt's place, and the prompt is shown again below it.
@MainActor
func say(_ text: String) {
    let interrupts = Terminal.isPrompting
    if interrupts { Terminal.write("\r\u{1B}[K") }  // back to the line's start, and clear it
    print("  \(text)")
    if interrupts { Terminal.prompt() }
    fflush(nil)
}
