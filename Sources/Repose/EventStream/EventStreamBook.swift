/// The event streams a service runs, so that dropping the service stops them (rule V4).
///
/// Held by the service's core; it holds the streams' runners weakly, since their streams own them.
@MainActor
final class EventStreamBook {
    private var running: [ObjectIdentifier: Weak] = [:]
    /// The streams the app holds, by URL: one per URL while in use (rule V6).
    private var streams: [String: WeakStream] = [:]
    /// Whether the app dropped the service: no stream starts again.
    private(set) var isServiceReleased = false

    private struct Weak {
        weak var runner: EventStreamRunner?
    }

    private struct WeakStream {
        weak var stream: EventStream?
    }

    /// The stream of `resource`'s URL that the app still holds, or a new one that `make` makes.
    func stream(for resource: Resource, make: () -> EventStream) -> EventStream {
        guard resource.invalidURLSource == nil else { return make() }  // no URL to share it by
        let key = resource.url.absoluteString
        if let stream = streams[key]?.stream { return stream }
        streams = streams.filter { $0.value.stream != nil }
        let stream = make()
        streams[key] = WeakStream(stream: stream)
        return stream
    }

    func add(_ runner: EventStreamRunner) {
        running[ObjectIdentifier(runner)] = Weak(runner: runner)
    }

    func remove(_ runner: EventStreamRunner) {
        running[ObjectIdentifier(runner)] = nil
    }

    /// How many streams run now.
    var count: Int { running.values.filter { $0.runner != nil }.count }

    /// Stops every stream: the app dropped the service.
    func serviceReleased() {
        isServiceReleased = true
        let runners = running.values.compactMap(\.runner)
        running.removeAll()
        for runner in runners {
            runner.stop()
        }
    }
}
