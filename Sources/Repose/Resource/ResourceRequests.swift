/// The requests in flight that concern one resource: its loads, and every request it tracks until it completes.
@MainActor
struct ResourceRequests {
    /// The loads in flight, oldest first.
    var loads: [Request] = []
    /// Every tracked request by identity, loads included, each with the order it began in: tracking and ending one
    /// costs the same whatever the number in flight, so an outbox draining thousands of one resource's writes,
    /// which end in another order than they began, stays linear.
    private(set) var tracked: [ObjectIdentifier: (order: Int, request: Request)] = [:]

    /// Orders ``all``: one count for every resource, so no resource stores one of its own.
    private static var nextOrder = 0

    /// Every tracked request, oldest first.
    var all: [Request] { tracked.values.sorted { $0.order < $1.order }.map(\.request) }

    /// Adds `request` unless it is tracked already or done; returns whether it did.
    mutating func track(_ request: Request) -> Bool {
        let id = ObjectIdentifier(request)
        guard request.state != .completed, tracked[id] == nil else { return false }
        Self.nextOrder += 1
        tracked[id] = (Self.nextOrder, request)
        return true
    }

    /// Forgets `request`; returns whether it was tracked.
    mutating func untrack(_ request: Request) -> Bool {
        tracked.removeValue(forKey: ObjectIdentifier(request)) != nil
    }
}
