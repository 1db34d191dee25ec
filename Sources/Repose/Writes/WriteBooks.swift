import Foundation
import ReposeSignals

/// What a service keeps for its writes: the resources to reload once the current main-actor turn ends, and
/// the outbox.
///
/// Reloads wait for the end of the turn (a zero wait on the service's timers), so that several writes that
/// land together reload each resource once (rule M6).
@MainActor
final class WriteBooks {
    private let timers: Timers
    /// Held weakly: a resource nobody uses any more has nobody to show its new data to. With each, the loads it
    /// had in flight when it became stale: they may have left before the write landed.
    private var reloads: [(resource: WeakResource, earlierLoads: [ObjectIdentifier])] = []
    private var isFlushScheduled = false
    /// The service's outbox, once it has one: from the start when it keeps a folder, else from first use.
    private(set) var outbox: Outbox?
    /// The account whose writes the outbox holds; see ``Service/partition``.
    var partition: String? {
        didSet { outbox?.switchPartition(to: partition) }
    }

    init(timers: Timers) {
        self.timers = timers
    }

    /// The outbox of the service of `core`, made now (in memory only) if it has none yet.
    func outbox(of core: ServiceCore, store: OutboxStore = .memory) -> Outbox {
        if let outbox { return outbox }
        let made = Outbox(core: core, store: store, partition: partition)
        outbox = made
        return made
    }

    /// Reloads `resource` at the end of this turn if it is observed or has a settled change waiting for data.
    func reloadSoon(_ resource: Resource) {
        if !reloads.contains(where: { $0.resource.resource === resource }) {
            reloads.append((WeakResource(resource), resource.loadRequests.map(ObjectIdentifier.init)))
        }
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        timers.after(.zero) { [weak self] in self?.flush() }
    }

    private func flush() {
        isFlushScheduled = false
        let due = reloads
        reloads.removeAll()
        for (weakResource, earlierLoads) in due {
            guard let resource = weakResource.resource else { continue }
            // A load started since (by the app's own success hook, say) brings data from after the write.
            let loadsSince = resource.loadRequests.contains { !earlierLoads.contains(ObjectIdentifier($0)) }
            if !loadsSince {
                resource.reloadAfterWrite()
            }
        }
    }
}

extension Resource {
    /// Reloads after a write made this resource stale: if observed, or if a change of a write that succeeded
    /// waits for the server's data. A load already in flight may have left before the write landed, so it does
    /// not count: a new one starts.
    ///
    /// While another write with a change shown here is on its way, the reload waits: that write's end asks again
    /// (``endChange(_:)``), so that n writes to one resource cost one reload and one pass over their changes, not n
    /// of each (rule T4). Its changes show meanwhile, so nothing flickers.
    func reloadAfterWrite() {
        let awaitsData = record.hasSettledChanges
        guard awaitsData || isObserved, !record.hasUnsettledChanges else { return }
        if isLoading || (awaitsData && isUpToDate) {
            load()
        } else {
            loadIfNeeded()
        }
    }
}
