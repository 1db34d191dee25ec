import Repose

/// Says where a resource's data came from: the disk cache, or the server (a 304 that confirmed it, or a change);
/// a first load from the network goes without a word, since the screen shows it, and so does a first failure. A failure
/// after a failure is told, since the screen's line stays as it was.
///
/// It listens to the resource's events, which tell a cache hit (`newData(.cache)`) from a network answer, and a
/// 304 (`notModified` after `requested`) from a fresh cache hit that needed no request (`notModified` alone).
@MainActor
final class LoadNarrator {
    private let label: String
    /// Whether a request is out, and whether the resource had data to compare its answer with, or an error.
    private var asked = false
    private var hadData = false
    private var hadError = false
    private var subscription: Subscription?

    /// Narrates `resource`'s loads until the narrator goes away.
    init(_ resource: Resource) {
        label = resource.url.path + (resource.url.query.map { "?\($0)" } ?? "")
        subscription = resource.events.observe { [weak self] event in self?.tell(event, resource) }
    }

    private func tell(_ event: ResourceEvent, _ resource: Resource) {
        switch event {
        case .requested:
            asked = true
            hadData = resource.latestData != nil
            hadError = resource.latestError != nil
        case .newData(.cache):
            let saved = resource.latestData.map { ClockText.seconds($0.timestamp) } ?? "?"
            say("💾 \(label): from disk, saved at \(saved)")
        case .newData(.network):
            if asked, hadData { say("🌐 \(label): 200, changed on the server") }
            asked = false
        case .notModified:
            say(asked ? "🌐 \(label): 304, nothing changed" : "💾 \(label): fresh on disk, no request")
            asked = false
        case .error:
            if asked, hadError, let error = resource.latestError {
                say("🌐 \(label): failed again, \(error.userMessage)")
            }
            asked = false
        case .requestCancelled:
            asked = false
        default:
            break
        }
    }
}
