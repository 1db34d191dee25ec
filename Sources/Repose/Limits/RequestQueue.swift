import Foundation

/// The service's queue in front of its networking provider (rules Q1, Q2): a request takes a slot when the service's
/// ``RequestLimits`` leave one, and otherwise waits, by priority, for a request of its host or of the service to end.
///
/// Waiting requests sit in one heap per host, ordered by ``Key``. A change of a waiting load's rank (its resource
/// gained or lost its last observer) pushes the load again under its new key, and a withdrawn request is only marked:
/// the heap drops outdated entries as they reach its top, and is rebuilt when they outnumber the live ones, so that
/// entering, leaving and starting each cost O(log n) in the requests waiting for one host, plus a look at the top of
/// each host's heap when a slot frees.
@MainActor
final class RequestQueue {
    /// A request's place in the queue: waiting, then holding a slot, then done.
    final class Ticket {
        fileprivate enum State { case waiting, running, done }

        fileprivate let host: String
        fileprivate let priority: RequestPriority
        fileprivate let arrival: Int
        /// The resource the request concerns, and its identity, which outlives it in the books.
        fileprivate weak var resource: Resource?
        fileprivate let resourceID: ObjectIdentifier
        /// Whether it is a load, whose rank among equal priorities its resource's observers decide.
        fileprivate let isLoad: Bool
        fileprivate var state = State.waiting
        /// Bumped when the ticket is pushed again under a new key: older entries of it are outdated.
        fileprivate var version = 0
        fileprivate var start: (@MainActor (Ticket) -> Void)?
        /// When it entered the queue, on the service's clock.
        let enteredAt: TimeInterval

        fileprivate init(
            host: String, priority: RequestPriority, arrival: Int, resource: Resource, isLoad: Bool,
            enteredAt: TimeInterval, start: @escaping @MainActor (Ticket) -> Void
        ) {
            self.host = host
            self.priority = priority
            self.arrival = arrival
            self.resource = resource
            resourceID = ObjectIdentifier(resource)
            self.isLoad = isLoad
            self.enteredAt = enteredAt
            self.start = start
        }

        /// Whether it still waits for a slot.
        var isWaiting: Bool { state == .waiting }
    }

    /// Which waiting request goes first: the app's priority, then an observed load (or a request that is no load)
    /// before an unobserved load, then the order of arrival.
    fileprivate struct Key: Comparable {
        var priority: Int
        var rank: Int
        var arrival: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.priority, lhs.rank, lhs.arrival) < (rhs.priority, rhs.rank, rhs.arrival)
        }
    }

    fileprivate struct Entry: Comparable {
        let key: Key
        let version: Int
        let ticket: Ticket

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.key < rhs.key }
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.key == rhs.key }
    }

    /// One host's waiting requests.
    private struct Line {
        var heap = BinaryHeap<Entry>()
        var live = 0
    }

    let limits: RequestLimits
    /// Whether either cap is set; stored, since every request asks.
    let isLimited: Bool
    private let now: @Sendable () -> TimeInterval
    private var running = 0
    private var runningByHost: [String: Int] = [:]
    private var lines: [String: Line] = [:]
    private var arrivals = 0
    /// The waiting requests of each resource: a change of its observers moves its loads, and the inspector counts
    /// them.
    private var waitingByResource: [ObjectIdentifier: [Ticket]] = [:]
    /// How many requests wait.
    private(set) var waitingCount = 0

    init(limits: RequestLimits, now: @escaping @Sendable () -> TimeInterval) {
        self.limits = limits
        isLimited = limits.total != nil || limits.perHost != nil
        self.now = now
    }

    /// The host part of `url` that the per-host cap counts by: scheme, host and port.
    static func host(of url: URL?) -> String {
        guard let url else { return "" }
        return "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
    }

    /// Queues a request of `resource` to `url`; `start` runs (now, or once a slot frees) when it may go. The observers
    /// of a load's resource decide its rank.
    func enter(
        url: URL?, priority: RequestPriority, of resource: Resource, isLoad: Bool,
        start: @escaping @MainActor (Ticket) -> Void
    ) -> Ticket {
        arrivals += 1
        let ticket = Ticket(
            host: Self.host(of: url), priority: priority, arrival: arrivals, resource: resource, isLoad: isLoad,
            enteredAt: now(), start: start)
        if hasRoom(for: ticket.host) {
            run(ticket)  // nothing waits that could take this slot: whatever waits is held by its own host's cap
        } else {
            waitingCount += 1
            lines[ticket.host, default: Line()].live += 1
            push(ticket)
            waitingByResource[ticket.resourceID, default: []].append(ticket)
        }
        return ticket
    }

    /// The ticket's request ended or was cancelled: a slot it held goes to the next waiting request; a place it held
    /// in the line is given up at once, and its request is never started.
    func leave(_ ticket: Ticket) {
        switch ticket.state {
        case .done:
            return
        case .running:
            ticket.state = .done
            running -= 1
            runningByHost[ticket.host, default: 1] -= 1
            if runningByHost[ticket.host] == 0 { runningByHost[ticket.host] = nil }
            startWaiting()
        case .waiting:
            ticket.state = .done
            ticket.start = nil
            stopWaiting(ticket)
            compactIfNeeded(ticket.host)
        }
    }

    /// `resource` gained its first observer or lost its last: its waiting loads move to their new rank (rule Q2).
    func observersChanged(of resource: Resource) {
        guard waitingCount > 0, let tickets = waitingByResource[ObjectIdentifier(resource)] else { return }
        for ticket in tickets where ticket.isWaiting && ticket.isLoad {
            ticket.version += 1
            push(ticket)
        }
    }

    /// How many requests of `resource` wait for a slot.
    func waitingCount(of resource: Resource) -> Int {
        waitingCount == 0 ? 0 : waitingByResource[ObjectIdentifier(resource)]?.count ?? 0
    }

    // MARK: Starting

    private func hasRoom(for host: String) -> Bool {
        if let total = limits.total, running >= total { return false }
        if let perHost = limits.perHost, runningByHost[host, default: 0] >= perHost { return false }
        return true
    }

    private func run(_ ticket: Ticket) {
        ticket.state = .running
        running += 1
        runningByHost[ticket.host, default: 0] += 1
        let start = ticket.start
        ticket.start = nil
        start?(ticket)
    }

    /// Starts waiting requests while slots are free: each time the best first request of a host that has room.
    private func startWaiting() {
        while waitingCount > 0 {
            if let total = limits.total, running >= total { return }
            var best: (host: String, entry: Entry)?
            for host in Array(lines.keys) where hasRoom(for: host) {
                guard let top = liveTop(of: host) else { continue }
                if best.map({ top < $0.entry }) ?? true { best = (host, top) }
            }
            guard let best else { return }
            lines[best.host]?.heap.removeTop()
            let ticket = best.entry.ticket
            stopWaiting(ticket)
            run(ticket)
        }
    }

    /// The first entry of `host`'s line that is still current, dropping outdated ones; `nil` if none waits.
    private func liveTop(of host: String) -> Entry? {
        while let top = lines[host]?.heap.top {
            if top.ticket.isWaiting, top.version == top.ticket.version { return top }
            lines[host]?.heap.removeTop()
        }
        lines[host] = nil
        return nil
    }

    // MARK: Books

    private func push(_ ticket: Ticket) {
        let observed = !ticket.isLoad || ticket.resource.map { !$0.observers.isEmpty } ?? true
        let key = Key(priority: ticket.priority.rawValue, rank: observed ? 0 : 1, arrival: ticket.arrival)
        lines[ticket.host, default: Line()].heap.insert(Entry(key: key, version: ticket.version, ticket: ticket))
    }

    private func stopWaiting(_ ticket: Ticket) {
        waitingCount -= 1
        lines[ticket.host]?.live -= 1
        let id = ticket.resourceID
        waitingByResource[id]?.removeAll { $0 === ticket }
        if waitingByResource[id]?.isEmpty == true { waitingByResource[id] = nil }
    }

    /// Rebuilds `host`'s heap from its current entries once outdated ones outnumber them, so that requests cancelled
    /// while waiting cost no memory for long.
    private func compactIfNeeded(_ host: String) {
        guard let line = lines[host], line.heap.count > 2 * line.live + 64 else { return }
        lines[host]?.heap = BinaryHeap(
            line.heap.elements.filter { $0.ticket.isWaiting && $0.version == $0.ticket.version })
    }
}
