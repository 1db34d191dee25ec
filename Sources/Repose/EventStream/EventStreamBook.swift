/// The event streams a service runs, so that dropping the service stops them (rule V4).
///
/// Held by the service's core; it holds the streams' runners weakly, since their streams own them.
@MainActor
final class EventStreamBook {
    private var running: [ObjectIdentifier: Weak] = [:]
    /// Whether the app dropped the service: no stream starts again.
    private(set) var isServiceReleased = false

    private struct Weak {
        weak var runner: EventStreamRunner?
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
