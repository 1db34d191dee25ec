import Foundation
import Repose

/// A large download with a progress bar drawn from the request's `onProgress` reports.
@MainActor
enum Download {
    /// Loads `resource` and draws its progress until it completes.
    static func run(_ resource: Resource) async {
        let bar = ProgressBar()
        let start = ContinuousClock.now
        bar.draw(0)
        let response = await resource.load().onProgress { bar.draw($0) }.response
        switch response {
        case .success(let entity):
            bar.draw(1)
            let bytes = (entity.content as? Data)?.count ?? 0
            let seconds = (ContinuousClock.now - start).interval
            say(String(format: "✓ downloaded %.1f MB in %.1f s", Double(bytes) / 1_048_576, seconds))
        case .failure(let error):
            bar.end()
            say("⚠️  the download failed: \(error.userMessage)")
        }
    }
}

/// A bar from 0 to 100 %: redrawn in place on a terminal; elsewhere (a log, a pipe) one line per quarter.
@MainActor
final class ProgressBar {
    private let width = 30
    private let inPlace = Terminal.redrawsInPlace
    private var quartersShown = -1
    private var isOpen = false
    private var isFull = false

    /// Shows `fraction` (0 to 1) of the bar; once it is full, later reports change nothing.
    func draw(_ fraction: Double) {
        guard !isFull, fraction.isFinite else { return }
        let fraction = min(max(fraction, 0), 1)
        isFull = fraction >= 1
        if inPlace {
            Terminal.write("\r  " + Self.render(fraction, width: width))
            isOpen = true
            if fraction >= 1 { end() }
        } else if Int(fraction * 4) > quartersShown {
            quartersShown = Int(fraction * 4)
            say(Self.render(fraction, width: width))
        }
    }

    /// Ends the line a bar drawn in place stays on.
    func end() {
        guard isOpen else { return }
        isOpen = false
        print("")
    }

    /// The bar as text, such as `[███████░░░░░░░]  50%`.
    static func render(_ fraction: Double, width: Int) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        let percent = String(Int((fraction * 100).rounded(.down)))
        let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            + "] \(padded)%"
    }
}
