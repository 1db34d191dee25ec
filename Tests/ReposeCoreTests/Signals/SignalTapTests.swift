import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Debug taps: print(_:)")
struct SignalTapTests {
    let source = SignalSource<String>()

    /// The lines the tap writes while `body` runs with only `categories` enabled, through a captured handler.
    func lines(enabling categories: ReposeLog.Category = .signals, _ body: () -> Void) -> [String] {
        let lines = TapLines()
        ReposeLog.withHandler({ category, message in lines.append("\(category) \(message)") }) {
            ReposeLog.withEnabled(categories, operation: body)
        }
        return lines.all
    }

    @Test("S23 print writes the connection, each value and the disconnection through the log handler")
    func writesEvents() {
        var received: [String] = []
        let written = lines {
            let subscription = source.signal.print("query").observe { received.append($0) }
            source.send("sw")
            source.send("swift")
            subscription.cancel()
        }
        #expect(
            written == [
                "signals query: connected", #"signals query: value "sw""#, #"signals query: value "swift""#,
                "signals query: disconnected",
            ])
        #expect(received == ["sw", "swift"])
    }

    @Test("S23 the tap changes nothing in delivery: same values, same order, same observers, with or without it")
    func deliveryUnchanged() {
        var plain: [String] = []
        var tapped: [String] = []
        _ = lines {
            let a = source.signal.map { $0.uppercased() }.observe { plain.append("a \($0)") }
            let b = source.signal.print().map { $0.uppercased() }.observe { tapped.append("a \($0)") }
            let c = source.signal.observe { [source] value in
                plain.append("c \(value)")
                tapped.append("c \(value)")
                if value == "1" { source.send("2") }
            }
            source.send("1")
            withExtendedLifetime((a, b, c)) {}
        }
        #expect(plain.filter { $0.hasPrefix("a") } == tapped.filter { $0.hasPrefix("a") })
        #expect(tapped.filter { $0.hasPrefix("a") } == ["a 1", "a 2"])
    }

    @Test("S23 a URL in a tapped value is redacted like in every line Repose writes")
    func redacts() {
        let written = lines {
            let subscription = source.signal.print("link").observe { _ in }
            source.send("see https://me:pa55@api.example.com/feed?access_token=abc&page=2")
            subscription.cancel()
        }
        #expect(written.contains { $0.contains("https://me:<redacted>@api.example.com/feed?access_token=<redacted>") })
        #expect(!written.contains { $0.contains("pa55") || $0.contains("abc") })
    }

    @Test("S23 with the signals category off the tap writes nothing")
    func offByDefault() {
        var received: [String] = []
        let written = lines(enabling: .common) {
            let subscription = source.signal.print("quiet").observe { received.append($0) }
            source.send("x")
            subscription.cancel()
        }
        #expect(written.isEmpty)
        #expect(received == ["x"])
    }

    @Test("S17 S23 a finishing signal's tap writes that it finished")
    func finished() {
        let written = lines {
            let subscription = source.signal.prefix(1).print("once").observe { _ in }
            source.send("x")
            _ = subscription
        }
        #expect(written == ["signals once: connected", #"signals once: value "x""#, "signals once: finished"])
    }

    @Test("S23 a state's tap writes its changes; observing replays the value without a line")
    func state() {
        let count = MutableState(1)
        var received: [Int] = []
        let written = lines {
            let subscription = count.state.print("count").observe { received.append($0) }
            count.value = 2
            subscription.cancel()
        }
        #expect(written == ["signals count: connected", "signals count: value 2", "signals count: disconnected"])
        #expect(received == [1, 2])
    }
}

/// Lines a log handler, which may be called on any thread, appends to.
private final class TapLines: @unchecked Sendable {
    // Safe: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
