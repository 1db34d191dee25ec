import Foundation
import Repose

/// The scripted tour, played when standard input is not a terminal: every feature, command by command, over two
/// launches of the app that share a disk cache in a folder of their own.
@MainActor
struct Tour {
    /// The embedded API, with the tour's short latencies.
    let setup: DemoSetup

    /// Plays the tour; `true` when every step finished in time.
    func play() async -> Bool {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("repose-demo-tour-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        section("Launch 1: a cold start, with an empty disk cache")
        let first = DemoClient(setup: setup, cacheFolder: folder, startsCold: true)
        let pause = Int(setup.searchPause.interval * 1000)
        let keystrokes = Int(setup.keystrokeInterval.interval * 1000)
        step("1. Debounced search: keystrokes \(keystrokes) ms apart; one request once typing pauses for \(pause) ms")
        await type("search ad", first)
        step("2. A user and their repositories: two resources, one status line (combineLatest)")
        await type("user ada", first)
        step("3. Refresh: the ETags go back as If-None-Match, and the server answers 304")
        await type("refresh", first)
        step("4. A paged list: page 1 is the profile's resource; the Link header leads to page 2")
        await type("repos", first)
        await type("more", first)
        step("5. Optimistic stars, two at once: the refused one rolls back alone")
        print("repose> star ada/analytical-engine  &  star ada/difference-engine")
        let kept = Task { await first.run(.star("ada/analytical-engine")) }
        try? await Task.sleep(for: .milliseconds(10))  // two taps, one just after the other
        let refused = Task { await first.run(.star("ada/difference-engine")) }
        _ = await (kept.value, refused.value)
        await type("unstar ada/analytical-engine", first)
        await type("quit", first)

        section("Launch 2: the same disk cache, a new service")
        let second = DemoClient(setup: setup, cacheFolder: folder, startsCold: false)
        step("6. Warm start: the disk's data shows before the network answers")
        await type("user ada", second)
        step("7. Offline: stale data beside the error, then back online")
        await type("offline", second)
        await type("online", second)
        step("8. A large download, with a progress bar")
        await type("download ada/analytical-engine", second)
        step("9. The inspector: every live resource of the service")
        await type("inspect", second)
        step("10. A live feed: the server's events keep a repository current while you watch")
        await type("live ada/analytical-engine", second)
        await type("quit", second)

        let requests = setup.fixture.map { " \($0.requestCount) requests reached the embedded API." } ?? ""
        let timeouts = Waiting.timeouts
        print(timeouts == 0 ? "\nTour complete.\(requests)" : "\nTour incomplete: \(timeouts) steps timed out.")
        return timeouts == 0
    }

    private func section(_ title: String) {
        print("\n━━ \(title)")
    }

    private func step(_ title: String) {
        print("\n▶ \(title)")
    }

    /// Plays `line` as if typed at the prompt.
    private func type(_ line: String, _ client: DemoClient) async {
        print("repose> \(line)")
        guard case .success(let command?) = Command.parse(line) else { return say("✗ the tour has a typo: \(line)") }
        _ = await client.run(command)
    }
}
