import Foundation

/// One optimistic change in a resource's record, from its write's start until the server's data replaces it.
struct PendingChange {
    /// Which write it belongs to; unique in the process.
    let id: Int
    let change: OptimisticChange
    /// When its write started: the time of data that exists only as this change.
    let startedAt: TimeInterval
    /// Set when its write succeeded: the record's ``ResourceRecord/settleCount`` at that moment. The change then
    /// waits for server data from a load started after that moment, and goes with it (rule M4).
    var settledAt: Int?

    /// A number for each write with a change, in start order.
    @MainActor static func nextID() -> Int {
        lastID += 1
        return lastID
    }

    @MainActor private static var lastID = 0
}

/// The server's data with the changes pending over it, oldest first. Boxed (`indirect`), so that a record
/// without pending changes grows by one word only.
indirect enum PendingLayers {
    case layers(serverData: Entity<Any>?, changes: [PendingChange], settled: Int)

    init(serverData: Entity<Any>?, changes: [PendingChange]) {
        self = .layers(serverData: serverData, changes: changes, settled: changes.count(where: { $0.settledAt != nil }))
    }

    var serverData: Entity<Any>? {
        switch self {
        case .layers(let serverData, _, _): serverData
        }
    }

    var changes: [PendingChange] {
        switch self {
        case .layers(_, let changes, _): changes
        }
    }

    /// Whether a change waits for its write's answer, rather than for the server's data after a success.
    var hasUnsettledChanges: Bool {
        switch self {
        case .layers(_, let changes, let settled): settled < changes.count
        }
    }

    /// Whether a change whose write succeeded waits for the server's data to replace it.
    var hasSettledChanges: Bool {
        switch self {
        case .layers(_, _, let settled): settled > 0
        }
    }

    /// What the resource shows: the server's data with every change applied in order (rule M2).
    var shown: Entity<Any>? {
        var shown = serverData
        for pending in changes {
            shown = pending.change.applied(to: shown, at: pending.startedAt)
        }
        return shown
    }

    /// Adds `pending` on top, in place: n changes started cost O(n) in all, not a copy of the stack each (rule T4).
    mutating func append(_ pending: PendingChange) {
        guard case .layers(let serverData, var changes, let settled) = self else { return }
        self = .layers(serverData: nil, changes: [], settled: 0)  // lets go of the stack: `changes` is its only owner
        changes.append(pending)
        self = .layers(serverData: serverData, changes: changes, settled: settled)
    }

    /// Marks the change `id` settled at `count`, in place; `false` if no change has that id.
    mutating func settle(_ id: Int, at count: Int) -> Bool {
        guard case .layers(let serverData, var changes, let settled) = self,
            let index = changes.firstIndex(where: { $0.id == id }), changes[index].settledAt == nil
        else { return false }
        self = .layers(serverData: nil, changes: [], settled: 0)
        changes[index].settledAt = count
        self = .layers(serverData: serverData, changes: changes, settled: settled + 1)
        return true
    }
}

/// What the writes and the state ask of a record's pending changes.
extension ResourceRecord {
    /// Whether a change whose write succeeded still waits for the server's data to replace it.
    var hasSettledChanges: Bool {
        layers?.hasSettledChanges ?? false
    }

    /// Whether a change waits for its write's answer.
    var hasUnsettledChanges: Bool {
        layers?.hasUnsettledChanges ?? false
    }

    /// How many optimistic changes are pending over the server's data.
    var pendingChangeCount: Int {
        layers?.changes.count ?? 0
    }
}
