import Foundation

/// One optimistic change in a resource's record, from its mutation's start until the server's data replaces it.
struct PendingChange {
    /// Which mutation it belongs to; unique in the process.
    let id: Int
    let change: OptimisticChange
    /// When its mutation started: the time of data that exists only as this change.
    let startedAt: TimeInterval
    /// Set when its mutation succeeded: the record's ``ResourceRecord/settleCount`` at that moment. The change then
    /// waits for server data from a load started after that moment, and goes with it (rule M4).
    var settledAt: Int?

    /// A number for each mutation with a change, in start order.
    @MainActor static func nextID() -> Int {
        lastID += 1
        return lastID
    }

    @MainActor private static var lastID = 0
}

/// The server's data with the changes pending over it, oldest first. Boxed (`indirect`), so that a record
/// without pending changes grows by one word only.
indirect enum PendingLayers {
    case layers(serverData: Entity<Any>?, changes: [PendingChange])

    var serverData: Entity<Any>? {
        switch self {
        case .layers(let serverData, _): serverData
        }
    }

    var changes: [PendingChange] {
        switch self {
        case .layers(_, let changes): changes
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
}
