import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request sent through the service's networking provider, from start to completion: a load, a write, an upload, a
/// download, an event stream's connection. It builds each attempt, sends it, hears back from it on the main actor,
/// reports progress, retries as the policy says, and completes once.
///
/// Each concern is a part of its own, read one at a time:
/// - **the attempt** (``TransferAttempt``): what the provider talks to, on its threads; it keeps the body in the
///   request's ``BodySink`` and brings progress, news and the ending back to the main actor by one route;
/// - **the destination** (``Destination``): what the response's body becomes, in memory, in a file, as events;
/// - **progress** (``RequestProgress``, below): bytes and time made into one value;
/// - **retries** (`NetworkRequest+Retry.swift`, rule R5): a failure the ``Configuration/retryPolicy`` retries is not
///   reported: after the policy's wait the request is built again from its parts (current headers, credential,
///   ETag) and sent again, and the ``Request`` the caller holds stays the same throughout.
@MainActor
final class NetworkRequest: RequestDelegate {
    /// What the response's body becomes.
    enum Destination {
        /// Bytes in memory, processed by the pipeline: a load's, a write's.
        case memory
        /// A file at this URL, streamed to disk (rule X2).
        case file(URL)
        /// An event stream's events, for its runner (rules V1, V2).
        case events(EventStreamRunner)
        /// Pieces for the app to read as they arrive (rules U2, U4).
        case chunks(ChunkStream)
    }

    let resource: Resource
    let method: RequestMethod
    let destination: Destination
    let buildRequest: @MainActor () -> URLRequest
    /// The request as the current attempt sends it.
    var urlRequest: URLRequest
    /// The method after the request mutations ran: what later configuration (decorators, pipeline) is chosen by.
    var effectiveMethod: RequestMethod
    /// Where the outcome goes; held until it is delivered or the request is cancelled.
    private(set) var handler: RequestCompletionHandler?
    /// The attempt under way, if one is.
    private var attempt: TransferAttempt?
    /// Which attempt this is, and the wait before the next (rule R5).
    var retries = Retries()
    /// The log scope of the code that sent the request, in effect again while its outcome is delivered.
    private(set) var logScope = LogScope()
    /// The request's measurements, while a monitor listens (rule X1); `nil`, the usual case, measures nothing.
    var metrics: MetricsRecorder?
    /// Where the request stands in the service's queue, when the app set it (rule Q2).
    var priority: RequestPriority?
    /// The current attempt's place in the service's queue, from its entry until the attempt ends (rule Q1).
    private var ticket: RequestQueue.Ticket?
    /// The current attempt's progress, and whether the service's ticker moves it; `nil` for an event stream.
    private var progress: RequestProgress?
    private var isTicking = false

    init(
        resource: Resource, method: RequestMethod, destination: Destination = .memory,
        buildRequest: @escaping @MainActor () -> URLRequest
    ) {
        self.resource = resource
        self.method = method
        self.destination = destination
        self.buildRequest = buildRequest
        urlRequest = buildRequest()
        effectiveMethod = Self.method(of: urlRequest) ?? method
    }

    /// The request's method as a ``RequestMethod``, in whatever case it was set.
    static func method(of request: URLRequest) -> RequestMethod? {
        guard let name = request.httpMethod else { return nil }
        return RequestMethod(rawValue: name) ?? RequestMethod(rawValue: name.uppercased())
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        handler = completionHandler
        send()
    }

    /// Sends the current attempt.
    func send() {
        ReposeLog.log(.network, requestDescription)
        ReposeLog.log(.networkDetails, ReposeLog.describe(urlRequest))
        logScope = LogScope()
        let configuration = resource.configuration(for: effectiveMethod)
        let url = urlRequest.url ?? resource.url
        // Only GETs into memory carry the resource's state, so only they fill its caches.
        let pipeline = configuration.pipeline
        let fillsCaches = effectiveMethod == .get && destination.isMemory && pipeline.hasCaches
        let log = LogSettings.scope(for: ResponseLog.categories)
        let processor = ResponseProcessor(
            pipeline: pipeline, now: resource.core.now,
            cacheTargets: fillsCaches ? pipeline.cacheTargets(for: resource) : [],
            log: log.map { ResponseLog(scope: $0, method: effectiveMethod, url: url) })
        retries.policy = destination.isEvents ? nil : configuration.retryPolicy  // a stream reconnects by its own rules
        // The monitors' connection read in place: with none connected, the usual case, their code need not run.
        if metrics == nil, resource.core.monitors.deliver != nil, resource.core.monitors.isListening {
            metrics = MetricsRecorder(
                monitors: resource.core.monitors, resource: resource.url, now: resource.core.now,
                method: effectiveMethod, url: url)
        }
        metrics?.attemptStarted(method: effectiveMethod, url: url, bodySize: urlRequest.httpBody?.count ?? 0)
        // A monitor's `started` may have cancelled the request: a cancel before it leaves is final.
        guard handler != nil else { return }
        let sink: any BodySink
        let failure: (any Error)?
        do {
            (sink, failure) = (try makeSink(configuration), nil)
        } catch {
            (sink, failure) = (MemoryBody(maximumSize: 0), error)
        }
        if let file = sink as? DownloadFile {  // a download that stopped early continues where it stopped (rule Q3)
            for (name, value) in file.resumeHeaders { urlRequest.setValue(value, forHTTPHeaderField: name) }
        }
        let attempt = TransferAttempt(for: self, body: sink, processor: processor, metrics: metrics)
        self.attempt = attempt
        if !destination.isEvents {
            startProgress(minimumInterval: configuration.progressReportingInterval)
        }
        if let failure {
            attempt.fail(with: failure)  // delivered like any outcome, later
        } else if destination.isEvents || !resource.core.requestQueue.isLimited {
            attempt.start(urlRequest, on: resource.core.networking)  // a live feed holds no slot (rule Q1)
        } else {
            let isLoad = effectiveMethod == .get && destination.isMemory
            ticket = resource.core.requestQueue.enter(
                url: urlRequest.url, priority: priority ?? configuration.priority ?? .normal, of: resource,
                isLoad: isLoad
            ) { [weak self, weak attempt, weak queue = resource.core.requestQueue] ticket in
                guard let self, let attempt, attempt === self.attempt else {
                    queue?.leave(ticket)  // its request is gone: the slot goes to the next
                    return
                }
                self.metrics?.leftQueue(enteredAt: ticket.enteredAt)
                attempt.start(self.urlRequest, on: self.resource.core.networking)
            }
        }
    }

    /// Gives up the attempt's place in the service's queue, or its slot, so that the next request may go.
    private func leaveQueue() {
        guard let ticket else { return }
        self.ticket = nil
        resource.core.requestQueue.leave(ticket)
    }

    /// The sink for the current attempt's body.
    private func makeSink(_ configuration: Configuration) throws -> any BodySink {
        switch destination {
        case .memory:
            MemoryBody(maximumSize: configuration.maximumResponseSize, isHead: effectiveMethod == .head)
        case .file(let destination):
            try DownloadFile(destination: destination, url: urlRequest.url)
        case .events(let runner):
            EventStreamReader(for: runner, maximumEventSize: configuration.maximumResponseSize, now: resource.core.now)
        case .chunks(let stream):
            ChunkSink(stream: stream)
        }
    }

    // MARK: What the attempt brings back

    /// What `attempt` delivered in one trip to the main actor: progress, then news, then its ending.
    func receive(
        _ samples: [(TransferProgress, at: TimeInterval)], _ news: [BodyNews], _ ending: TransferAttempt.Ending?,
        finalCounts: TransferProgress? = nil, from attempt: TransferAttempt
    ) {
        guard attempt === self.attempt, let handler, !handler.willIgnore else { return }
        logScope.run {
            for (sample, time) in samples {
                report(sample, at: time, to: handler)
            }
            for item in news where self.attempt === attempt {  // news may end the request (a stream stopped)
                item()
            }
            guard self.attempt === attempt else { return }
            if let ending {
                if let finalCounts { handler.broadcastTransfer(finalCounts) }
                finish(attempt.outcome(of: ending), handler)
            } else if !samples.isEmpty {
                joinTicker()  // time moves a body's progress too (rule W7)
            }
        }
    }

    private func finish(_ outcome: ResponseProcessor.Outcome, _ handler: RequestCompletionHandler) {
        attempt = nil
        leaveQueue()
        stopProgress()
        logScope.outcome?(.network, "\(requestDescription) → \(outcome.logSummary)")
        let info = responseInfo(for: outcome)
        if let wait = retryWait(after: info) {
            retry(after: wait)
            return
        }
        finishMetrics()
        self.handler = nil
        handler.broadcastResponse(info)
    }

    private func responseInfo(for outcome: ResponseProcessor.Outcome) -> ResponseInfo {
        switch outcome {
        case .response(let response):
            return ResponseInfo(response: response)
        case .notModified(let headers):
            if let existing = resource.record.latestData {
                // The 304's header fields replace the stored ones (RFC 9111 §4.3.4), so hooks see them too.
                return ResponseInfo(response: .success(existing.revalidated(by: headers)), isNew: false)
            }
            let error = RequestError(
                userMessage: "The server said nothing changed, but there is no saved data.",
                cause: RequestError.Cause.NoLocalDataFor304(), httpStatusCode: 304, timestamp: resource.core.now())
            return ResponseInfo(response: .failure(error))
        }
    }

    func cancelUnderlyingOperation() {
        attempt?.cancel()  // whatever the provider still reports is dropped; a download's file is removed
        attempt = nil
        leaveQueue()  // a request still waiting is never sent
        retries.cancelWait()
        stopProgress()
        finishMetrics(cancelled: true)
        handler = nil
    }

    // MARK: Retrying (rule R5): whether to, here; the next attempt in NetworkRequest+Retry.swift

    /// How long to wait before another attempt, if the policy wants one after `info`.
    func retryWait(after info: ResponseInfo) -> TimeInterval? {
        guard let policy = retries.policy, policy.methods.contains(effectiveMethod),
            case .retry(let seconds) = policy.decision(after: info, attempt: retries.attempt)
        else { return nil }
        // A streamed body the app has begun to read is never sent again (rule U5).
        if case .chunks(let stream) = destination, !stream.restart() { return nil }
        return seconds
    }

    // MARK: Metrics (rule X1)

    /// Whether a monitor measures this request.
    var isMeasuring: Bool { metrics != nil }

    /// Tells the monitors, once, that the request completed.
    func finishMetrics(cancelled: Bool = false) {
        guard let recorder = metrics else { return }
        metrics = nil
        resource.latestMetrics = recorder.finish(attempts: retries.count, cancelled: cancelled)
    }

    // MARK: Progress (see RequestProgress)

    private func startProgress(minimumInterval: TimeInterval) {
        stopProgress()
        progress = RequestProgress(minimumInterval: minimumInterval, start: resource.core.now())
        joinTicker()
    }

    private func stopProgress() {
        progress = nil
        guard isTicking else { return }
        isTicking = false
        resource.core.progressTicker.remove(self)
    }

    /// Ticks again once bytes arrive, if the wait before them had levelled off and left the ticker (rule W7).
    private func joinTicker() {
        guard !isTicking, progress != nil else { return }
        isTicking = true
        resource.core.progressTicker.add(self)
    }

    private func report(_ sample: TransferProgress, at time: TimeInterval, to handler: RequestCompletionHandler) {
        handler.broadcastTransfer(sample)
        if let fraction = progress?.record(sample, at: time) { handler.broadcastProgress(fraction) }
    }

    /// Moves the progress with time, for the service's ticker; returns whether ticking it is still worth it.
    func tick() -> Bool {
        guard isTicking, let handler, !handler.willIgnore else { return false }
        // A tick's value is broadcast at once: it must not overtake bytes' values still on their way.
        if attempt?.hasReportInFlight == true { return true }
        if let fraction = progress?.tick(at: resource.core.now()) { handler.broadcastProgress(fraction) }
        // Levelled off: the ticker lets it go, and its body's first bytes bring it back.
        isTicking = progress?.movesWithTime == true && !handler.willIgnore
        return isTicking
    }
}

extension NetworkRequest.Destination {
    var isMemory: Bool {
        if case .memory = self { true } else { false }
    }

    var isEvents: Bool {
        if case .events = self { true } else { false }
    }
}

/// A request's attempts (rule R5): which one is under way, the policy that may ask for another, and the wait before
/// it.
struct Retries {
    /// The attempt under way, from 1.
    var attempt = 1
    /// The attempts of the requests this one repeats, for its metrics.
    var prior = 0
    var policy: RetryPolicy?
    /// The policy's wait before the next attempt, while it runs.
    var wait: TimerToken?

    /// How many attempts the request has made, those it repeats included.
    var count: Int { prior + attempt }

    mutating func cancelWait() {
        wait?.cancel()
        wait = nil
    }
}

/// A request's progress: bytes (the samples of the attempt's ``ProgressSampler``) and time made into one value from 0
/// to 1, on the main actor.
///
/// While nothing of the response has arrived, the request is waiting,
/// and its progress grows with time toward `waitingShare` (a quarter-second wait shows little, a slow server a bar
/// that keeps moving). Once the response starts, the wait's part is fixed where it stands and the bytes fill the
/// rest: their share of the announced length, or, with no length announced, an estimate that grows with the bytes
/// and never reaches the end. While the body comes, time moves the bar too (rule W7): every tick closes part of the
/// distance to the end, so a slow body never stands still. Only completion makes it 1. Time is the service's clock;
/// the service's ``ProgressTicker`` moves the time-driven part, so there is no timer per request.
struct RequestProgress {
    /// The part of the bar that waiting for the response may fill.
    static let waitingShare = 0.3
    /// How fast waiting fills its share: half of what is left of it every this many seconds.
    static let waitingHalfLife = 1.0
    /// The waiting part counts as levelled off once it is within this fraction of its share: no tick is worth it.
    static let waitingLevel = 0.99
    /// The smallest growth worth a tick's report, so that ticks late in a long wait cost no report.
    static let waitingStep = 0.005
    /// While the body comes, time closes half the distance to the end every this many seconds, without bytes.
    static let bodyHalfLife = 8.0
    /// With no length announced, this many bytes count as half the body: an estimate that keeps growing.
    static let unknownLengthHalf = 256.0 * 1024
    /// Nothing below completion shows more than this.
    static let ceiling = 0.999

    let minimumInterval: TimeInterval
    let start: TimeInterval
    private var lastReportTime: TimeInterval = -.infinity
    private var lastFraction = 0.0
    private var transfer = 0.0
    /// The waiting part, fixed once the response started; nil while waiting.
    private var waited: Double?
    /// When time last moved the bar while the body comes.
    private var creptAt: TimeInterval = 0
    /// Whether time still moves the bar: false once a wait has levelled off, until bytes come.
    private(set) var movesWithTime = true

    init(minimumInterval: TimeInterval, start: TimeInterval) {
        self.minimumInterval = minimumInterval
        self.start = start
    }

    /// The value the provider's `sample`, taken at `time`, makes, if it is worth reporting.
    mutating func record(_ sample: TransferProgress, at time: TimeInterval) -> Double? {
        if sample.bytesReceived > 0 || sample.bytesExpectedToReceive != nil, waited == nil {
            waited = Self.waitingPart(after: time - start)
            creptAt = time
        }
        transfer = max(transfer, Self.fraction(of: sample))
        movesWithTime = true  // a wait that had levelled off moves again with its body
        return reportable(at: time)
    }

    /// The value time makes at `time`, if it is worth reporting; afterwards ``movesWithTime`` says whether ticking
    /// is still worth it.
    mutating func tick(at time: TimeInterval) -> Double? {
        guard let waited else {
            defer { movesWithTime = Self.waitingPart(after: time - start) < Self.waitingShare * Self.waitingLevel }
            return reportable(at: time, step: Self.waitingStep)
        }
        let from = max(lastFraction, waited + (1 - waited) * transfer)
        let moved = (Self.ceiling - from) * (1 - pow(2, -(time - creptAt) / Self.bodyHalfLife))
        guard time - lastReportTime >= minimumInterval, moved > 0 else { return nil }
        creptAt = time
        lastFraction = min(from + moved, Self.ceiling)
        lastReportTime = time
        return lastFraction
    }

    private mutating func reportable(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = waited ?? Self.waitingPart(after: time - start)
        let fraction = min(wait + (1 - wait) * transfer, Self.ceiling)
        guard fraction > lastFraction + step, time - lastReportTime >= minimumInterval else { return nil }
        lastFraction = fraction
        lastReportTime = time
        return fraction
    }

    /// The waiting part after `elapsed` seconds: 0 at first, half of `waitingShare` after one half-life.
    static func waitingPart(after elapsed: TimeInterval) -> Double {
        guard elapsed > 0 else { return 0 }
        return waitingShare * (1 - pow(2, -elapsed / waitingHalfLife))
    }

    /// Upload and download each count for half when there is a body to send; otherwise the download is all.
    static func fraction(of sample: TransferProgress) -> Double {
        func part(_ done: Int64, _ expected: Int64?) -> Double {
            guard let expected, expected > 0 else {
                return done > 0 ? Double(done) / (Double(done) + unknownLengthHalf) : 0
            }
            return min(Double(done) / Double(expected), 1)
        }
        let download = part(sample.bytesReceived, sample.bytesExpectedToReceive)
        guard let toSend = sample.bytesExpectedToSend, toSend > 0 else { return min(download, ceiling) }
        return min(0.5 * part(sample.bytesSent, toSend) + 0.5 * download, ceiling)
    }
}
