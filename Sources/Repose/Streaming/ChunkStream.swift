import Foundation

/// A streamed request's body between the network and the app: the pieces the provider handed over and the app has
/// not read yet, at most about ``capacity`` bytes of them (rule U4).
///
/// The provider's thread adds pieces through each attempt's ``ChunkSink``; the app's reader takes them, one at a
/// time, in its own task; the request's outcome arrives on the main actor. A piece that would pass the capacity
/// waits, holding the provider's thread, until the reader makes room: the network is held back instead of the body
/// piling up in memory. The reader's leaving (``abandon()``) or the attempt's end lets a waiting piece go.
///
/// One stream serves every attempt of its request: an attempt made before any byte reached the app (a retry, the
/// authenticator's repeat after a 401) starts the body over; after that, none is made (rule U5).
///
/// Safe (`@unchecked Sendable`): every variable is touched only while `condition` is locked.
final class ChunkStream: @unchecked Sendable {
    /// How many unread bytes hold the network back.
    let capacity: Int
    private let condition = NSCondition()
    private var chunks: [Data] = []
    /// The index of the next unread piece in `chunks`.
    private var next = 0
    private var buffered = 0
    /// Whether the app has read a byte: no attempt is made after that.
    private var reachedApp = false
    /// The attempt whose pieces are taken; an attempt that ended stops waiting.
    private var attempt = 0
    /// The request's outcome, from the main actor: a success comes after the whole body.
    private var outcome: Result<Void, RequestError>?
    /// Whether the reader left: nothing more is kept or waited for.
    private var isAbandoned = false
    private var reader: CheckedContinuation<Void, Never>?
    /// How many pieces wait for room.
    private var waitingAppends = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// How many bytes wait for the reader.
    var bufferedByteCount: Int {
        condition.withLock { buffered }
    }

    /// How many pieces wait for the reader to make room: the network held back.
    var waitingAppendCount: Int {
        condition.withLock { buffered >= capacity ? waitingAppends : 0 }
    }

    // MARK: The network's side

    /// Drops what a failed attempt left unread, for another attempt, unless the app has read part of the body:
    /// returns whether the request may be sent again (rule U5). Once it returned `true`, the reader waits for the
    /// next attempt's body.
    func restart() -> Bool {
        condition.withLock {
            guard !reachedApp else { return false }
            (chunks, next, buffered) = ([], 0, 0)
            return true
        }
    }

    /// A new attempt: its body replaces what an earlier one left unread. Returns the attempt's number.
    func beginAttempt() -> Int {
        condition.withLock {
            attempt += 1
            if !reachedApp {
                (chunks, next, buffered) = ([], 0, 0)
            }
            return attempt
        }
    }

    /// Adds `bytes` from `attempt`, once there is room; throws when the reader left or the attempt ended.
    func append(_ bytes: Data, from attempt: Int) throws {
        let waiting = try condition.withLock { () -> CheckedContinuation<Void, Never>? in
            waitingAppends += 1
            while buffered >= capacity, !isAbandoned, self.attempt == attempt {
                condition.wait()
            }
            waitingAppends -= 1
            guard !isAbandoned, self.attempt == attempt else {
                throw RequestError.Cause.RequestCancelled(networkError: nil)
            }
            chunks.append(bytes)
            buffered += bytes.count
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }

    /// `attempt` ended (failed, cancelled, or succeeded): a piece of it still waiting for room is dropped.
    func endAttempt(_ attempt: Int) {
        condition.withLock {
            guard self.attempt == attempt else { return }
            self.attempt += 1
            condition.broadcast()
        }
    }

    // MARK: The main actor's side

    /// The request completed: the reader ends after the pieces it has not read yet, with `response`'s error if any.
    func complete(with response: Response) {
        let waiting = condition.withLock { () -> CheckedContinuation<Void, Never>? in
            guard outcome == nil else { return nil }
            outcome = response.map { _ in () }
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }

    // MARK: The reader's side

    /// The next unread piece, once there is one; `nil` at the body's end or once the reader left. Throws the
    /// request's error once the pieces before it are read.
    func read() async throws(RequestError) -> Data? {
        while true {
            switch take() {
            case .piece(let piece): return piece
            case .end: return nil
            case .failure(let error): throw error
            case .wait:
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        let ready = condition.withLock { () -> Bool in
                            guard next == chunks.count, outcome == nil, !isAbandoned else { return true }
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
        case piece(Data)
        case end
        case failure(RequestError)
        case wait
    }

    private func take() -> Take {
        condition.withLock {
            if isAbandoned { return .end }
            if next < chunks.count {
                let piece = chunks[next]
                next += 1
                buffered -= piece.count
                reachedApp = true
                if next == chunks.count {
                    (chunks, next) = ([], 0)
                } else if next >= 64 {
                    chunks.removeFirst(next)
                    next = 0
                }
                condition.broadcast()
                return .piece(piece)
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
        let waiting = condition.withLock { () -> CheckedContinuation<Void, Never>? in
            isAbandoned = true
            (chunks, next, buffered) = ([], 0, 0)
            condition.broadcast()
            defer { reader = nil }
            return reader
        }
        waiting?.resume()
    }
}
