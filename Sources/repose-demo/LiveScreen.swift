import Foundation
import Repose

/// The `live` command: a repository's star count kept current by the server's event stream while the user watches,
/// with the stream's connection state beside it.
///
/// Each `star` event names the repository; the stream invalidates it, and since it is observed it reloads. The
/// screen watches three events' worth of changes, then lets go of its subscriptions, which closes the stream.
@MainActor
final class LiveScreen {
    private let repository: Resource
    private let fullName: String
    private let stream: EventStream
    /// How many star counts arrived through the feed.
    private let updates = MutableState(0)

    init(service: Service, repository: Resource, fullName: String) {
        self.repository = repository
        self.fullName = fullName
        stream = service.eventStream("/repos/\(fullName)/events").on("star", .invalidate())
    }

    /// Shows the star count and the feed's state until `count` events have changed the count; `false` on a timeout.
    func watch(count: Int) async -> Bool {
        if repository.latestData == nil { _ = await repository.loadIfNeeded()?.response }
        let stars = repository.state.map { $0.jsonDict["stargazers_count"] as? Int }.removeDuplicates()
        var first = true
        stars.observe(owner: self) { [fullName, updates] stars in
            let cause = first ? "" : " (someone starred it; the feed said so)"
            say("★ \(fullName): \(stars.map(String.init) ?? "?") stars\(cause)")
            if !first { updates.value += 1 }
            first = false
        }
        let feedStates = stream.connection.map(\.description).removeDuplicates()
        feedStates.observe(owner: self) { state in say("📡 live feed: \(state)") }
        let met = await Waiting.until(updates.state) { $0 >= count }
        return met
    }
}

extension DemoClient {
    /// Watches `fullName` (or the first repository on screen) change through the live feed for three events, then
    /// stops watching, which closes the feed.
    func watchLive(_ fullName: String?) async {
        let first = profile?.repositories.jsonArray.lazy.compactMap { ($0 as? [String: Any])?["full_name"] as? String }
        let fullName = fullName ?? first?.first ?? "\(setup.login)/analytical-engine"
        guard let repository = repository(fullName) else { return say("“\(fullName)” is not OWNER/REPO") }
        var screen: LiveScreen? = LiveScreen(service: service, repository: repository, fullName: fullName)
        let events = 3
        let met = await screen?.watch(count: events) ?? false
        screen = nil  // nothing watches the feed any more: it closes
        if met {
            say("✓ live: \(events) star events kept \(fullName) current; nothing watches the feed now, so it closed")
        }
    }
}
