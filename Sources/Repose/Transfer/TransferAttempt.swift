import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt of a ``NetworkRequest``, as the networking provider sees it: the request's ``ResponseSink``. It takes
/// the provider's calls on whatever thread they come, hands the body to the request's ``BodySink``, counts the bytes
/// for progress (its ``ProgressSampler``) and metrics, and brings what the main actor must hear back to it by one
/// route. The body of a load or a write is a ``MemoryBody``; both follow in this file, as every load runs them.
///
/// **The route back.** What the provider's threads produce waits in `inbox`, under `lock`: progress samples, a body's
/// news, the ending. The first report while no hop is on its way posts one main-queue block (``MainRoute``'s way),
/// which delivers everything there by then, in order; a response whose progress and end come at once costs one hop.
///
/// **Where the body is processed.** A whole body that is small and fills no cache is processed in that delivery, on
/// the main actor: a hop costs more than parsing it. Any other is processed first on a queue of its own: the app's
/// transformers and models never run on the provider's thread, which a session's other transfers share (rule U6).
///
/// Safe (`@unchecked Sendable`): every variable is touched only under `lock`; the sink is called outside it, one
/// call at a time as the provider makes them, apart from `discard`.
final class TransferAttempt: ResponseSink, @unchecked Sendable {
    /// What ends an attempt, as it waits for the main actor.
    enum Ending {
        case outcome(ResponseProcessor.Outcome)
        /// A small whole body, processed on the main actor as it is delivered.
        case whole(NetworkResponse)
    }

    private struct Inbox {
        /// Whether reports are taken: until the attempt is cancelled.
        var isOpen = true
        /// Whether the attempt has ended: the provider's later calls find nothing to do.
        var hasEnded = false
        var isHopPending = false
        /// Every sample since the last delivery, in order, stamped on the service's clock as it arrived.
        var samples: [(TransferProgress, at: TimeInterval)] = []
        var news: [BodyNews] = []
        var ending: Ending?
    }

    let processor: ResponseProcessor
    private let metrics: MetricsRecorder?
    private let lock = NSLock()
    /// Until the ending is delivered or the attempt is cancelled: the provider holds the attempt, so a request that
    /// nobody else holds still completes.
    private var request: NetworkRequest?
    private var body: any BodySink
    private var head: NetworkResponse?
    private var sampler: ProgressSampler
    private var inbox = Inbox()
    /// The provider's handle, to cancel the transfer.
    private var task: (any NetworkingTask)?

    init(for request: NetworkRequest, body: any BodySink, processor: ResponseProcessor, metrics: MetricsRecorder?) {
        self.request = request
        self.body = body
        self.processor = processor
        self.metrics = metrics
        sampler = ProgressSampler(at: processor.now())
    }

    /// Sends `request` through `provider` into this attempt.
    func start(_ request: URLRequest, on provider: any NetworkingProvider) {
        let started = provider.startTransfer(request, into: self)
        let wasCancelled = lock.withLock { () -> Bool in
            guard inbox.isOpen else { return true }
            // An attempt that already ended keeps no handle: the provider's task may hold this attempt as its sink.
            if self.request != nil { task = started }
            return false
        }
        if wasCancelled { started.cancel() }
    }

    /// Stops the attempt: nothing more is delivered, the body's sink lets go of what it kept, the transfer stops.
    func cancel() {
        let (sink, task) = lock.withLock { () -> (any BodySink, (any NetworkingTask)?) in
            let taken = (body, self.task)
            inbox = Inbox()
            inbox.isOpen = false
            request = nil
            self.task = nil
            return taken
        }
        sink.discard()
        task?.cancel()
    }

    /// Whether a report waits for its hop to the main actor.
    var hasReportInFlight: Bool { lock.withLock { inbox.isHopPending } }

    // MARK: What the provider calls

    func receive(_ response: NetworkResponse) -> Bool {
        metrics?.record(head: response)
        let sink = lock.withLock { () -> (any BodySink)? in
            guard inbox.isOpen, !inbox.hasEnded, head == nil else { return nil }
            head = response
            if response.statusCode >= 400, !body.takesErrorBodies {
                body.discard()
                body = MemoryBody(maximumSize: MemoryBody.errorBodyLimit, truncates: true)
            }
            sampler.expect(response.contentLength)
            return body
        }
        guard let sink else { return false }
        return take { try sink.begin(response) }
    }

    func receive(_ bytes: Data) -> Bool {
        metrics?.recordBody(bytes.count)
        let time = processor.now()
        let taken = lock.withLock { () -> ((any BodySink), Bool)? in
            guard inbox.isOpen, !inbox.hasEnded else { return nil }
            return (body, sampler.received(bytes.count, at: time))
        }
        guard let (sink, isWorthReport) = taken else { return false }
        guard take({ try sink.append(bytes) }) else { return false }
        if isWorthReport { postSample(at: time) }
        return true
    }

    func progress(_ sample: TransferProgress) {
        metrics?.record(sample)
        let time = processor.now()
        if lock.withLock({ inbox.isOpen && !inbox.hasEnded && sampler.merge(sample, at: time) }) {
            postSample(at: time)
        }
    }

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        metrics?.recordEnd(connection: connection, isFromCache: isFromCache)
        guard let (sink, head) = lock.withLock({ inbox.isOpen && !inbox.hasEnded ? (body, head) : nil }) else {
            return
        }
        guard let head, error == nil else {
            return fail(with: error ?? URLError(.badServerResponse))  // a provider's end without a response
        }
        let end: BodyEnd
        do {
            end = try sink.end(head)
        } catch {
            return fail(with: error)
        }
        switch end {
        case .content(let content):
            var metadata = head
            metadata.body = Data()
            let entity = Entity<Any>(response: metadata, content: content, timestamp: processor.now())
            post(.outcome(.response(.success(entity))))
        case .whole(let response) where processor.isCostly(response):
            DispatchQueue.global(qos: .userInitiated).async {
                self.post(.outcome(self.processor.process(.success(response))))
            }
        case .whole(let response):
            post(.whole(response))
        }
    }

    /// Ends the attempt with `error`: a transport failure, a body its sink refused, a file that could not be made.
    func fail(with error: any Error) {
        lock.withLock { body }.discard()
        post(.outcome(processor.process(.failure(error))))
    }

    /// Runs one step of the body's sink: its news goes to the main actor; an error ends the attempt, and says the
    /// provider should stop.
    private func take(_ step: () throws -> BodyNews?) -> Bool {
        do {
            if let news = try step() {
                post { $0.news.append(news) }
            }
            return true
        } catch {
            fail(with: error)
            return false
        }
    }

    // MARK: The route back to the main actor

    private func postSample(at time: TimeInterval) {
        post { inbox in
            if let sample = sampler.take(at: time) { inbox.samples.append((sample, time)) }
        }
    }

    private func post(_ ending: Ending) {
        post { inbox in
            inbox.ending = ending
            inbox.hasEnded = true
        }
    }

    /// Leaves a report in the inbox (under the lock), and sends the hop that delivers it unless one is on its way.
    private func post(_ store: (inout Inbox) -> Void) {
        let needsHop = lock.withLock { () -> Bool in
            guard inbox.isOpen else { return false }
            store(&inbox)
            guard !inbox.isHopPending else { return false }
            inbox.isHopPending = true
            return true
        }
        if needsHop {
            // MainRoute's block, posted here so that it carries nothing but this attempt.
            DispatchQueue.main.async { MainActor.assumeIsolated { self.deliver() } }
        }
    }

    @MainActor
    private func deliver() {
        let time = processor.now()
        let (request, samples, news, ending, counts) = lock.withLock {
            // A sample not worth a hop of its own rides along with any that comes, unless it says the whole body
            // arrived: the outcome follows at once and makes the progress 1. With the ending only its counts are
            // told (``Request/transfer``).
            var counts: TransferProgress?
            if inbox.ending != nil {
                counts = sampler.take(at: time)
            } else if !sampler.isComplete, let sample = sampler.take(at: time) {
                inbox.samples.append((sample, time))
            }
            defer {
                if inbox.ending != nil {  // the provider's task may hold this attempt: neither keeps the other
                    self.request = nil
                    task = nil
                }
                (inbox.samples, inbox.news, inbox.ending, inbox.isHopPending) = ([], [], nil, false)
            }
            return (self.request, inbox.samples, inbox.news, inbox.ending, counts)
        }
        request?.receive(samples, news, ending, finalCounts: counts, from: self)
    }

    /// What `ending` means, processed here on the main actor when the body was small.
    func outcome(of ending: Ending) -> ResponseProcessor.Outcome {
        switch ending {
        case .outcome(let outcome): outcome
        case .whole(let response): processor.process(.success(response))
        }
    }
}

/// A body kept in memory, up to a size: a load's, a write's, and any request's error response.
///
/// Safe (`@unchecked Sendable`): its variables are touched only by the attempt's calls, which come one at a time;
/// `discard` touches nothing.
final class MemoryBody: BodySink, @unchecked Sendable {
    /// The most of an error response's body kept for a download's or an event stream's ``RequestError``: what a
    /// problem document or an error page needs.
    static let errorBodyLimit = 64 * 1024
    /// The most body bytes reserved up front on the word of a `Content-Length` header.
    private static let maximumReservation = 16 * 1024 * 1024

    let maximumSize: Int
    /// Whether a body past `maximumSize` is cut there rather than failing the request: an error's page is only
    /// read for its message.
    private let truncates: Bool
    /// Whether a `Content-Length` announces a body that comes: not for the answer to a HEAD, a 204 or a 304.
    private let isHead: Bool
    private var body = Data()
    /// The body's length as announced, within the limit: room made for it once the first piece arrives.
    private var announced = 0

    var takesErrorBodies: Bool { true }

    init(maximumSize: Int, truncates: Bool = false, isHead: Bool = false) {
        self.maximumSize = maximumSize
        self.truncates = truncates
        self.isHead = isHead
    }

    /// Refuses a body announced larger than the limit before any of it arrives (a `Content-Length` counts encoded
    /// bytes, fewer than the decoded ones the limit counts for gzip: a body announced too large is too large), and
    /// notes the size of one announced within it, to make room for it at once.
    func begin(_ head: NetworkResponse) throws -> BodyNews? {
        guard !isHead, head.statusCode != 204, head.statusCode != 304, let length = head.contentLength else {
            return nil
        }
        if length > maximumSize, !truncates {
            throw RequestError.Cause.ResponseTooLarge(maximumSize: maximumSize)
        }
        announced = min(length, maximumSize, Self.maximumReservation)
        return nil
    }

    /// Keeps `bytes`, unless the body would pass the limit: then the request fails (or, truncating, the rest is
    /// dropped).
    func append(_ bytes: Data) throws -> BodyNews? {
        guard bytes.count <= maximumSize - body.count else {
            if !truncates { throw RequestError.Cause.ResponseTooLarge(maximumSize: maximumSize) }
            body.append(bytes.prefix(maximumSize - body.count))
            return nil
        }
        if body.isEmpty {
            body = bytes  // the whole body often arrives at once: kept instead of copied
            if announced > bytes.count { body.reserveCapacity(announced) }
        } else {
            body.append(bytes)
        }
        return nil
    }

    func end(_ head: NetworkResponse) -> BodyEnd {
        var whole = head
        whole.body = body
        body = Data()
        return .whole(whole)
    }

    func discard() {}
}

extension NetworkResponse {
    /// The length the `Content-Length` header announces, if it is a number.
    var contentLength: Int? {
        headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) }
    }
}

/// The bytes of one attempt as they move, and which samples of them are worth a trip to the main actor. Kept by the
/// attempt under its lock, on the provider's thread.
///
/// A sample is worth showing when the first bytes of a body that is still coming arrive, after every sixteenth of
/// the transfer (at least 64 KB), or a tenth of a second after the last sample if bytes moved since; a body that
/// arrives whole is told by its outcome alone. ``RequestProgress`` makes the samples and time into one value.
struct ProgressSampler {
    /// Progress is worth a report once this many bytes moved since the last one, or a sixteenth of the transfer if
    /// that is more: enough for a progress bar, and few enough that reports cost nothing.
    private static let minimumStep: Int64 = 64 * 1024
    /// Bytes that moved are worth a report anyway once this long passed since the last one, so that a slow body
    /// moves the progress while it arrives instead of in one step at its end (rule W7).
    private static let maximumGap: TimeInterval = 0.1

    private(set) var sample = TransferProgress()
    /// The body's pieces counted; the sample's bytes received are these, or a provider's own count if more.
    private var bodyBytes: Int64 = 0
    private var reportedBytes: Int64 = 0
    private var reportedAt: TimeInterval
    private(set) var hasNewSample = false

    init(at time: TimeInterval) {
        reportedAt = time
    }

    /// The response announced `length` body bytes.
    mutating func expect(_ length: Int?) {
        sample.bytesExpectedToReceive = length.map { Int64($0) }
    }

    /// `count` more body bytes arrived; returns whether the sample is worth a report now.
    mutating func received(_ count: Int, at time: TimeInterval) -> Bool {
        guard count > 0 else { return false }
        let isFirst = bodyBytes == 0
        bodyBytes += Int64(count)
        sample.bytesReceived = max(sample.bytesReceived, bodyBytes)
        if let expected = sample.bytesExpectedToReceive {
            sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
        }
        hasNewSample = true
        // The first bytes of a body still coming show that the download started; a body that arrived whole is
        // reported together with its outcome.
        return (isFirst && sample.bytesExpectedToReceive != sample.bytesReceived) || movedEnough(at: time)
    }

    /// A provider's own sample; returns whether it is worth a report now. The upload's bytes are sampled as the
    /// body's are; a count of bytes received, which a provider that hands the body over at its end reports when it
    /// has something to say, is worth a report as it comes, but for the last, which the outcome follows at once.
    /// Counts never go back.
    mutating func merge(_ reported: TransferProgress, at time: TimeInterval) -> Bool {
        let before = sample
        sample.bytesSent = max(sample.bytesSent, reported.bytesSent)
        if let expected = reported.bytesExpectedToSend, expected > 0 {
            sample.bytesExpectedToSend = max(expected, sample.bytesSent)
        }
        sample.bytesReceived = max(sample.bytesReceived, reported.bytesReceived)
        if let expected = reported.bytesExpectedToReceive, expected > 0 {
            sample.bytesExpectedToReceive = max(expected, sample.bytesReceived)
        }
        guard sample != before else { return false }
        hasNewSample = true
        if sample.bytesReceived > before.bytesReceived {
            return sample.bytesReceived < sample.bytesExpectedToReceive ?? .max
        }
        return movedEnough(at: time)
    }

    /// Whether the newest sample says the whole announced body arrived.
    var isComplete: Bool {
        guard let expected = sample.bytesExpectedToReceive else { return false }
        return sample.bytesReceived >= expected
    }

    /// The newest sample if it has not been reported yet; it counts as reported from now on.
    mutating func take(at time: TimeInterval) -> TransferProgress? {
        guard hasNewSample else { return nil }
        hasNewSample = false
        reportedBytes = sample.bytesSent + sample.bytesReceived
        reportedAt = time
        return sample
    }

    private func movedEnough(at time: TimeInterval) -> Bool {
        let total = (sample.bytesExpectedToSend ?? 0) + (sample.bytesExpectedToReceive ?? 0)
        let moved = sample.bytesSent + sample.bytesReceived - reportedBytes
        return moved >= max(Self.minimumStep, total / 16) || (moved > 0 && time - reportedAt >= Self.maximumGap)
    }
}
