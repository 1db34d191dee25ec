import Foundation
import ReposeSignals

/// Writes kept until the server has them: the writes an app makes offline, sent when the network comes back or
/// at the next launch, with their optimistic changes showing meanwhile (rules M8–M11, T1–T5).
///
/// A service has one outbox, ``Service/outbox``; it keeps its writes on disk when the service is given a
/// folder (``Service/Options/outbox``), otherwise in memory for the launch. Writes use it when asked to:
///
/// ```swift
/// api.configure("/notes/**", requestMethods: [.post, .put, .patch, .delete]) { $0.usesOutbox = true }
/// note.request(.patch, json: ["text": "Milk"], showing: .merge(["text": "Milk"]))
/// ```
///
/// Such a write goes through the outbox, which sends the writes of one resource one at a time, in the order
/// they were made. When an attempt fails for want of a network, the write waits, with its change showing, until
/// the service's ``Service/Options/reconnected`` signal fires, the next launch, or ``send()``; a refusal (4xx)
/// ends it, removes its change and is reported in ``Status/failures``, as well as to the request its caller holds.
/// A server error (5xx, 408, 429) on a write that has already waited makes it wait again; at its first attempt it
/// ends the write as a refusal does, since the caller is there to hear it.
///
/// Each write is kept as data: method, URL, body, its own headers, an `Idempotency-Key` made once and sent on
/// every attempt, and its creation time; never a closure. Every attempt is a new request built from that data, so
/// configured headers, mutators and decorators (an ``Authenticator``) run on it as on any request.
///
/// With a folder, a write's file is written whole before `request` returns, and flushed to the device before the
/// write is sent: a process killed at any moment loses no write it had not sent. A write that carries a
/// secret is never written: one whose URL has a user name or password, or a query parameter named in
/// ``secretParameterNames`` or in `ReposeLog.sensitiveNames`, or one with a header of its own that carries a secret
/// (other than `Authorization`, `Cookie` and `Proxy-Authorization`, which are dropped from the file and come back
/// from the configuration at each attempt). Such a write stays in memory for the launch, and its
/// ``Item/isStored`` says so. Only writes to the origin of the service's base URL are written, and only those
/// are read back: anything else in the folder is removed.
///
/// The outbox belongs to an account: its writes are kept in ``Service/partition``, the value that partitions
/// the file caches too, and only that partition's writes are shown and sent. `Service.wipeResources()` (log-out)
/// removes every write of the partition, those of the folder not read yet included.
@MainActor
public final class Outbox {
    /// A write in the outbox.
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
        /// Whether it is in the outbox's folder, to be sent after a relaunch; `false` when it lives in memory only,
        /// for this launch: it carries a secret, goes to another origin, or the outbox has no folder.
        public let isStored: Bool
    }

    /// A write the outbox ended without the server's acceptance: refused (4xx), or failed at its first attempt.
    public struct Failure: Sendable {
        /// The write.
        public let item: Item
        /// The server's answer.
        public let error: RequestError
    }

    /// What the outbox holds.
    public struct Status: Sendable {
        /// The writes not yet accepted by the server, oldest first. While ``isReading``, those of earlier
        /// launches are not here yet.
        public var pending: [Item]
        /// The writes the outbox ended unaccepted, oldest first, until ``Outbox/clearFailures()``.
        public var failures: [Failure]
        /// Whether the outbox is still reading its folder (at launch, or after the partition changed): it may hold
        /// more than ``pending`` says.
        public var isReading: Bool

        /// Whether the outbox knows it has nothing to send: `false` while it reads its folder, which may hold
        /// writes of an earlier launch. Bind "all saved" to this, not to `pending.isEmpty`.
        public var isEmpty: Bool { !isReading && pending.isEmpty }
    }

    /// The names of URL query parameters whose value is a secret: a write whose URL has one is kept in memory
    /// only, never in the folder. Names are compared ignoring case and the separators `-`, `_` and `.`, so
    /// `api_key` also catches `apiKey` and `API-KEY`; any name `ReposeLog.sensitiveNames` contains counts too.
    ///
    /// ```swift
    /// api.outbox.secretParameterNames.insert("session")
    /// ```
    public var secretParameterNames: Set<String> = Outbox.standardSecretParameterNames

    /// `access_token`, `token`, `api_key`, `apikey`, `key`, `secret`, `password`, `signature` and `sig`.
    public static let standardSecretParameterNames: Set<String> = [
        "access_token", "token", "api_key", "apikey", "key", "secret", "password", "signature", "sig",
    ]

    weak var core: ServiceCore?
    /// Where its writes are kept across launches; `nil` keeps them in memory.
    let storage: (any OutboxStorage)?
    /// Names this launch's files, so that a removal spares what is written after it.
    let launch = UUID().uuidString
    var book = OutboxBook()
    var failures: [Failure] = []
    var nextSequence = 0
    /// The partition whose writes the outbox holds; see ``Service/partition``.
    public internal(set) var partition: String?
    /// The read of the folder under way, if any; see `Outbox+Reading.swift`.
    var reading: Reading?
    /// How many reads have started, to number them.
    var readCount = 0
    var waiters: [Waiter] = []
    private var waiterCount = 0
    /// Made on first use of ``state``: until someone observes the status, a change costs nothing to publish.
    private var statusStorage: MutableState<Status>?
    private var cachedStatus: Status?

    init(core: ServiceCore, store: OutboxStore, partition: String?) {
        self.core = core
        self.partition = partition
        storage = store.storage
        startReading()
    }

    /// What the outbox holds now, as a state: observers get a new status at every change.
    public var state: State<Status> {
        if let statusStorage { return statusStorage.state }
        let made = MutableState(status)
        statusStorage = made
        return made.state
    }

    /// What the outbox holds now.
    public var status: Status {
        if let cachedStatus { return cachedStatus }
        var pending: [Item] = []
        pending.reserveCapacity(book.count)
        book.visit { pending.append(item($0)) }
        let made = Status(pending: pending, failures: failures, isReading: isReading)
        cachedStatus = made
        return made
    }

    /// Whether the outbox is reading its folder.
    var isReading: Bool { reading != nil }

    /// Sends every write that waits, in order, and returns once none is on its way: each was accepted, refused,
    /// or is waiting again because the network failed. At launch it first waits for the folder to be read. It also
    /// returns when the calling task is cancelled; the writes go on.
    public func send() async {
        resumeWaiting()
        await idle()
    }

    /// Makes every waiting write ready again, and sends what may go: the network came back.
    func resumeWaiting() {
        for key in book.keys(where: \.isWaiting) {
            book.update(key) { $0.phase = .ready }
        }
        drainAll()
    }

    /// Forgets the failures reported so far.
    public func clearFailures() {
        failures.removeAll()
        publish()
    }

    /// Waits until the folder has been read and no write is being stored or on its way.
    func idle() async {
        await wait { $0.isIdle }
    }

    /// Someone waiting for the outbox to reach a condition.
    struct Waiter {
        let number: Int
        let condition: @MainActor (Outbox) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    /// Waits until `condition` holds, checked now and at every change of the outbox, or until the calling task is
    /// cancelled: a test's time limit, or an app's task that went away, ends the wait instead of leaving it for ever.
    func wait(until condition: @escaping @MainActor (Outbox) -> Bool) async {
        guard !condition(self), !Task.isCancelled else { return }
        waiterCount += 1
        let number = waiterCount
        await withTaskCancellationHandler {
            await withCheckedContinuation {
                waiters.append(Waiter(number: number, condition: condition, continuation: $0))
            }
        } onCancel: {
            // Runs after the waiter is in place: the main actor is busy with the lines above until the wait begins.
            MainRoute.send { [weak self] in self?.stopWaiting(number) }
        }
    }

    private func stopWaiting(_ number: Int) {
        guard let index = waiters.firstIndex(where: { $0.number == number }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    var isIdle: Bool {
        !isReading && book.storingCount == 0 && book.sendingCount == 0
    }

    /// Something changed: the status is made again when next read, observers get it now, and waiters whose
    /// condition now holds resume.
    func publish() {
        cachedStatus = nil
        if let statusStorage { statusStorage.value = status }
        guard !waiters.isEmpty else { return }
        let due = waiters.filter { $0.condition(self) }
        guard !due.isEmpty else { return }
        waiters.removeAll { $0.condition(self) }
        for waiter in due { waiter.continuation.resume() }
    }

    func item(_ entry: OutboxEntry) -> Item {
        Item(
            idempotencyKey: entry.key, method: entry.data.requestMethod, url: entry.data.parsedURL,
            createdAt: entry.data.createdAt, isWaiting: entry.isWaiting, isStored: entry.isStored)
    }

    /// The changes of pending writes that show on the resource at `url`, oldest first: a resource made for it
    /// shows them from the start.
    func changes(showingOn url: String) -> [PendingChange] {
        guard book.hasChanges(showingOn: url) else { return [] }
        var found: [PendingChange] = []
        book.visit { if $0.changeTarget == url, let change = $0.change { found.append(change) } }
        return found
    }
}
