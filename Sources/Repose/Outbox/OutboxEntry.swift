import Foundation

/// A write the outbox holds, from its submission until the server accepts or refuses it.
@MainActor
struct OutboxEntry {
    enum Phase {
        /// Its file is written but not yet flushed to the device: it is not sent before it is (rule T2).
        case storing
        /// To be sent as soon as no earlier write of its resource is pending.
        case ready
        /// An attempt is on its way.
        case sending(Request)
        /// The network failed, or the server could not take it (5xx) after it was kept: it waits for the network to
        /// come back, the next launch, or ``Outbox/send()``.
        case waiting
    }

    /// The data every attempt is built from.
    var data: WriteData
    var sequence: Int
    var phase = Phase.ready
    /// Its optimistic change, shown on ``changeTarget`` while it is pending.
    var change: PendingChange?
    /// Whether it has waited for the network once: a server error then makes it wait again rather than end.
    var wasKept = false
    /// Whether its file is in the folder: `false` for a write kept in memory only (rule T3).
    var isStored = false
    /// The request its caller holds, in the launch that made it: completed with the write's outcome.
    var caller: RequestCompletionHandler?

    var key: String { data.idempotencyKey ?? "" }

    /// Where its change shows.
    var changeTarget: String { data.changeTarget ?? data.url }

    var isWaiting: Bool {
        if case .waiting = phase { return true }
        return false
    }
}
