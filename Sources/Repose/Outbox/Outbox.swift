import Foundation
import ReposeSignals

/// Mutations kept until the server has them: the writes an app makes offline, sent when the network comes back or
/// at the next launch, with their optimistic changes showing meanwhile (rules M8–M11).
///
/// A service has one outbox, ``Service/outbox``; it keeps its mutations on disk when the service is given a
/// folder (``Service/Options/outboxDirectory``), otherwise in memory for the launch. Mutations use it when asked to:
///
/// ```swift
/// api.configure("/notes/**", requestMethods: [.post, .put, .patch, .delete]) { $0.usesOutbox = true }
/// note.mutate(.patch, json: ["text": "Milk"], showing: .merge(["text": "Milk"]))
/// ```
///
/// Such a mutation goes through the outbox, which sends the mutations of one resource one at a time, in the order
/// they were made. When an attempt fails for want of a network, the mutation waits, with its change showing, until
/// the service's ``Service/Options/reconnected`` signal fires, the next launch, or ``send()``; a refusal (4xx)
/// ends it, removes its change and is reported in ``Status/failures``, as well as to the request its caller holds.
/// A server error (5xx, 408, 429) on a mutation that has already waited makes it wait again; at its first attempt it
/// ends the mutation as a refusal does, since the caller is there to hear it.
///
/// Each mutation is kept as data: method, URL, body, its own headers except those that carry secrets, an
/// `Idempotency-Key` made once and sent on every attempt, and its creation time; never a closure. Every attempt is
/// a new request built from that data, so configured headers, mutators and decorators (an ``Authenticator``) run
/// on it as on any request. Files are private to the user (0600 in a 0700 folder) and written whole, off the main
/// actor. `Service.wipeResources()` empties the outbox: a user who logs out leaves no write to be sent with the
/// next user's credentials.
@MainActor
public final class Outbox {
    /// A mutation in the outbox.
    public struct Item: Equatable, Sendable {
        /// Its `Idempotency-Key`, which identifies it.
        public let idempotencyKey: String
        /// Its HTTP method.
        public let method: RequestMethod
        /// The URL it goes to.
        public let url: URL
        /// When it was made, on the service's clock.
        public let createdAt: TimeInterval
        /// Whether it waits for the network (or, after a server error, for the server) rather than being on its
        /// way or next in line.
        public let isWaiting: Bool
    }

    /// A mutation the outbox ended without the server's acceptance: refused (4xx), or failed at its first attempt.
    public struct Failure: Sendable {
        /// The mutation.
        public let item: Item
        /// The server's answer.
        public let error: RequestError
    }

    /// What the outbox holds.
    public struct Status: Sendable {
        /// The mutations not yet accepted by the server, oldest first.
        public var pending: [Item]
        /// The mutations the outbox ended unaccepted, oldest first, until ``Outbox/clearFailures()``.
        public var failures: [Failure]
        /// Whether the outbox is still reading its folder, at launch.
        public var isReading: Bool
    }

    weak var core: ServiceCore?
    let files: OutboxFiles?
    var entries: [OutboxEntry] = []
    var failures: [Failure] = []
    var isReading: Bool
    var nextSequence = 0
    var waiters: [(condition: @MainActor (Outbox) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    private let statusStorage: MutableState<Status>

    init(core: ServiceCore, directory: URL?) {
        self.core = core
        files = directory.map(OutboxFiles.init)
        isReading = files != nil
        statusStorage = MutableState(Status(pending: [], failures: [], isReading: files != nil))
        files?.readAll { stored in
            let transfer = UncheckedTransfer(stored)
            Task { @MainActor [weak self] in self?.finishReading(transfer.value) }
        }
    }

    /// What the outbox holds now, as a state: observers get a new status at every change.
    public var state: State<Status> { statusStorage.state }

    /// What the outbox holds now.
    public var status: Status { statusStorage.value }

    /// Sends every mutation that waits, in order, and returns once none is on its way: each was accepted, refused,
    /// or is waiting again because the network failed. At launch it first waits for the folder to be read.
    public func send() async {
        resumeWaiting()
        await idle()
    }

    /// Makes every waiting mutation ready again, and sends what may go: the network came back.
    func resumeWaiting() {
        for index in entries.indices where !entries[index].isSending {
            entries[index].phase = .ready
        }
        drain()
    }

    /// Forgets the failures reported so far.
    public func clearFailures() {
        failures.removeAll()
        publish()
    }

    /// Waits until the folder has been read and no mutation is on its way.
    func idle() async {
        await wait { $0.isIdle }
    }

    /// Waits until `condition` holds, checked now and at every change of the outbox.
    func wait(until condition: @escaping @MainActor (Outbox) -> Bool) async {
        guard !condition(self) else { return }
        await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    var isIdle: Bool {
        !isReading && !entries.contains { $0.isSending }
    }

    func publish() {
        statusStorage.value = Status(
            pending: entries.map { entry in
                let isWaiting: Bool
                if case .waiting = entry.phase { isWaiting = true } else { isWaiting = false }
                return Item(
                    idempotencyKey: entry.key, method: entry.data.requestMethod, url: entry.data.parsedURL,
                    createdAt: entry.data.createdAt, isWaiting: isWaiting)
            }, failures: failures, isReading: isReading)
        guard !waiters.isEmpty else { return }
        let due = waiters.filter { $0.condition(self) }
        waiters.removeAll { $0.condition(self) }
        for waiter in due { waiter.continuation.resume() }
    }

    /// The changes of pending mutations that show on the resource at `url`, oldest first: a resource made for it
    /// shows them from the start.
    func changes(showingOn url: String) -> [PendingChange] {
        entries.compactMap { $0.changeTarget == url ? $0.change : nil }
    }
}
