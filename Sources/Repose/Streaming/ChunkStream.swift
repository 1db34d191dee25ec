import Foundation

/// A streamed request's body between the network and the app: the pieces the provider handed over and the app has
/// not read yet (rule U4).
///
/// The provider's thread adds pieces through each attempt's ``ChunkSink``; the app's reader takes them, one at a
/// time, in its own task; the request's outcome arrives on the main actor. Up to ``capacity`` unread bytes wait in
/// memory; beyond that, pieces wait in a ``SpillFile`` until the reader gets to them, so that a slow reader keeps
/// memory flat. The network's thread never waits for the reader: that thread is shared by every transfer of the
/// session (on Linux, of the process), and a reader awaiting another request would wait forever for it.
///
/// One stream serves every attempt of its request: an attempt made before any byte reached the app (a retry, the
/// authenticator's repeat after a 401) starts the body over; after that, none is made (rule U5).
///
/// Safe (`@unchecked Sendable`): every variable is touched only while `lock` is held.
final class ChunkStream: @unchecked Sendable {
    /// How many unread bytes wait in memory; more wait on disk.
    let capacity: Int
    private let lock = NSLock()
    private var chunks: [Data] = []
    private var buffered = 0
    /// Unread bytes after those in `chunks`, once they passed the capacity.
    private var spill: SpillFile?
    /// Whether the app has read a byte: no attempt is made after that.
    private var reachedApp = false
    /// The attempt whose pieces are taken.
    private var attempt = 0
    /// The request's outcome, from the main actor: a success comes after the whole body.
    private var outcome: Result<Void, RequestError>?
    /// Whether the reader left: nothing more is kept.
    private var isAbandoned = false
    private var reader: CheckedContinuation<Void, Never>?
    /// The latest attempt's status and headers, once they arrived.
    private var latestHead: NetworkResponse?

    private let now: @Sendable () -> TimeInterval

    init(capacity: Int, now: @escaping @Sendable () -> TimeInterval) {
        self.capacity = max(capacity, 1)
        self.now = now
    }

    /// How many unread bytes wait in memory.
    var bufferedByteCount: Int {
        lock.withLock { buffered }
    }

    /// How many unread bytes wait on disk.
    var spilledByteCount: Int {
        lock.withLock { spill?.unreadCount ?? 0 }
    }

    // MARK: The network's side

    /// Drops what a failed attempt left unread, for another attempt, unless the app has read part of the body:
    /// returns whether the request may be sent again (rule U5). Once it returned `true`, the reader waits for the
    /// next attempt's body.
    func restart() -> Bool {
        lock.withLock {
            guard !reachedApp else { return false }
            dropUnread()
            return true
        }
    }

    /// A new attempt: its body replaces what an earlier one left unread. Returns the attempt's number.
    func beginAttempt() -> Int {
        lock.withLock {
            attempt += 1
            if !reachedApp { dropUnread() }
            return attempt
        }
    }

    /// Adds `bytes` from `attempt`: in memory while there is room and nothing waits on disk, on disk otherwise.
    /// Throws when the reader left, the attempt ended, or the disk refused the bytes.
    func append(_ bytes: Data, from attempt: Int) throws {
        let waiting = try lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !isAbandoned, self.attempt == attempt else {
                throw RequestError.Cause.RequestCancelled(networkError: nil)
            }
            // Behind bytes on disk, or past the capacity (a piece larger than it, into empty memory, stays there).
            let isBehindDisk = spill.map { $0.unreadCount > 0 } ?? false
            if isBehindDisk || (buffered > 0 && buffered + bytes.count > capacity) {
                let spill = try spill ?? SpillFile()
                self.spill = spill
                try spill.write(bytes)
            } else {
                chunks.append(bytes)
                buffered += bytes.count
            }
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }

    /// An attempt's status and headers arrived.
    func began(_ head: NetworkResponse) {
        var head = head
        head.body = Data()
        lock.withLock { latestHead = head }
    }

    /// The status and headers of the attempt whose body is read, once they arrived.
    var head: NetworkResponse? {
        lock.withLock { latestHead }
    }

    /// `attempt` ended (failed, cancelled, or succeeded): nothing more of it is taken.
    func endAttempt(_ attempt: Int) {
        lock.withLock {
            guard self.attempt == attempt else { return }
            self.attempt += 1
        }
    }

    private func dropUnread() {
        (chunks, buffered, spill) = ([], 0, nil)
    }

    // MARK: The main actor's side

    /// The request completed: the reader ends after the pieces it has not read yet, with `response`'s error if any.
    func complete(with response: Response) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard outcome == nil else { return nil }
            outcome = response.map { _ in () }
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }

    // MARK: The reader's side

    /// The unread pieces, all of them, once there is one: a reader that wakes takes everything that arrived while it
    /// slept, in one go. `nil` at the body's end or once the reader left. Throws the request's error once the pieces
    /// before it are read.
    func read() async throws(RequestError) -> [Data]? {
        while true {
            switch take() {
            case .pieces(let pieces): return pieces
            case .end: return nil
            case .failure(let error): throw error
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let ready = lock.withLock { () -> Bool in
                            guard chunks.isEmpty, spill?.unreadCount ?? 0 == 0, outcome == nil, !isAbandoned
                            else {
                                return true
                            }
                            reader = continuation
                            return false
                        }
                        if ready { continuation.resume() }
                    }
                } onCancel: {
                    abandon()
                }
            }
        }
    }

    private enum Take {
        case pieces([Data])
        case end
        case failure(RequestError)
        case wait
    }

    private func take() -> Take {
        lock.withLock {
            if isAbandoned { return .end }
            if !chunks.isEmpty {
                defer { (chunks, buffered) = ([], 0) }
                reachedApp = true
                return .pieces(chunks)
            }
            if let spill, spill.unreadCount > 0 {
                reachedApp = true
                do {
                    return .pieces([try spill.read(upTo: max(capacity, 1 << 16))])
                } catch {
                    let cause = error as? RequestError.Cause.StreamBufferFailed ?? .init(errorNumber: EIO)
                    return .failure(RequestError(userMessage: cause.displayMessage, cause: cause, timestamp: now()))
                }
            }
            switch outcome {
            case .success: return .end
            case .failure(let error): return .failure(error)
            case nil: return .wait
            }
        }
    }

    /// The reader left: what waits is dropped, and the network's next piece stops the transfer.
    func abandon() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            isAbandoned = true
            dropUnread()
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }
}
