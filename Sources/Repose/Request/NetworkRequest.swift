import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request sent through the service's networking provider, from start to completion: it builds and sends each
/// attempt, has the response processed, reports progress (see the extension below), retries as the
/// policy says, and brings all of it back to the main actor by one route.
///
/// **The route back.** The provider calls back on any thread. What it reports is left in `inbox`, under `lock`; the
/// first report while no hop is on its way sends one main-queue block, which delivers everything there by then:
/// the newest progress, then the outcome. A provider that reports progress and completes at once (a small body, the
/// stub provider) so costs one hop. A provider that calls back from a plain block on the main queue (the stub
/// provider) is already where the main actor runs: the delivery runs in place, unless a task runs there (a test's
/// code calling a manual network expects the delivery later) or Repose's own code is below it (the provider's
/// `startRequest` has not returned yet).
///
/// **Processing.** A response is processed where it arrives (URLSession's queue), once, so every hook and observer
/// shares the parsed result; one that arrives on the main queue is processed there only when it is small and fills no
/// cache (see ``ResponseProcessor/isCostly(_:)``), otherwise on a background queue (rule H14).
///
/// **Retrying** (rule R5). A failure the ``Configuration/retryPolicy`` retries is not reported: after the policy's
/// wait on the service's scheduler the request is built again from its parts (current headers, credential, ETag)
/// and sent again. The ``Request`` the caller holds stays the same throughout.
@MainActor
final class NetworkRequest: RequestDelegate {
    let resource: Resource
    let method: RequestMethod
    let buildRequest: @MainActor () -> URLRequest
    /// Where a download's body goes, streamed to a file instead of memory (rule X2); `nil` for any other request.
    let destination: URL?
    /// The file the current download attempt writes, until it completes: a cancellation removes it.
    var downloadFile: DownloadFile?
    /// The request as the current attempt sends it.
    var urlRequest: URLRequest
    /// The method after mutation: what later configuration (decorators, pipeline) is chosen by.
    var effectiveMethod: RequestMethod
    /// Where the outcome goes; held until it is delivered or the request is cancelled. The provider's callbacks hold
    /// this request meanwhile, so a request nobody else holds still completes.
    private(set) var handler: RequestCompletionHandler?
    private var task: (any NetworkingTask)?
    /// Which attempt is under way, from 1 (rule R5), and how many the request this one repeats made before.
    var attempt = 1
    var priorAttempts = 0
    var retryPolicy: RetryPolicy?
    /// The policy's wait before the next attempt, while it runs.
    var retryTimer: TimerToken?
    /// The `network` log handler of the scope that started the request: the outcome's line is written on the main
    /// queue, where a task-scoped handler may no longer be in effect.
    var outcomeLog: ReposeLog.MessageHandler?
    /// The task-scoped log settings of the code that sent the request (tests capture lines this way), in effect again
    /// while the outcome is delivered.
    private var logOverride: ReposeLog.Override?
    /// The request's measurements, while a monitor listens (rule X1); `nil`, the usual case, measures nothing.
    var metrics: MetricsRecorder?
    /// The progress of the current attempt, moved by bytes and by time (see the extension below).
    var progress = ProgressState()

    /// What the provider's threads leave for the main actor. Safe (`nonisolated(unsafe)`): only touched under `lock`.
    private nonisolated(unsafe) var inbox = Inbox()
    private nonisolated let lock = NSLock()

    struct Inbox {
        /// Whether callbacks are taken: from a send until its outcome is delivered or the request is cancelled.
        var isOpen = false
        /// Whether a delivery from a plain main-queue block may run in place: once `startRequest` has returned.
        var mayDeliverInPlace = false
        var isHopPending = false
        /// Every sample since the last delivery, in order: each may make a value of its own.
        var samples: [(TransferProgress, at: TimeInterval)] = []
        var outcome: UncheckedTransfer<ResponseProcessor.Outcome>?
        var processor: ResponseProcessor?
        var metrics: MetricsRecorder?
    }

    init(
        resource: Resource, method: RequestMethod, destination: URL? = nil,
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
        outcomeLog = LogSettings.handler(for: .network)
        logOverride = ReposeLog.currentOverride
        let configuration = resource.configuration(for: effectiveMethod)
        retryPolicy = configuration.retryPolicy
        // Only GETs carry the resource's state, so only they fill its caches; a download's body is a file.
        let processor = ResponseProcessor(
            pipeline: configuration.pipeline, now: resource.core.now,
            cacheTargets: effectiveMethod == .get && destination == nil
                ? configuration.pipeline.cacheTargets(for: resource) : [],
            log: ResponseLog(method: effectiveMethod, url: urlRequest.url ?? resource.url))
        let metrics = startMetrics(configuration)
        // A monitor's `started` may have cancelled the request: a cancel before it leaves is final.
        guard handler != nil else { return }
        lock.withLock { inbox = Inbox(isOpen: true, processor: processor, metrics: metrics) }
        // A download's transfer samples its progress by the percent already.
        startProgress(minimumInterval: destination == nil ? configuration.progressReportingInterval : 0)
        if let destination {
            task = startDownload(to: destination, metrics: metrics)
        } else {
            task = resource.core.networking.startRequest(
                urlRequest, maximumResponseSize: configuration.maximumResponseSize,
                progress: { sample in self.receive(sample) }, completion: { result in self.receive(result) })
        }
        lock.withLock { inbox.mayDeliverInPlace = true }
    }

    // MARK: The route back to the main actor

    nonisolated func receive(_ sample: TransferProgress) {
        // A finished download is the last sample before the completion, which makes the progress 1 at once: it is
        // worth no hop of its own.
        if let expected = sample.bytesExpectedToReceive, expected > 0, sample.bytesReceived >= expected {
            lock.withLock { inbox.isOpen ? inbox.metrics : nil }?.record(sample)
            return
        }
        post { inbox in
            inbox.metrics?.record(sample)
            // Stamped as it arrives: the service's clock, not the hop's delay, decides what it is worth.
            inbox.samples.append((sample, inbox.processor?.now() ?? 0))
        }
    }

    private nonisolated func receive(_ result: Result<NetworkResponse, any Error>) {
        guard let (processor, metrics) = lock.withLock({ inbox.isOpen ? (inbox.processor, inbox.metrics) : nil }),
            let processor
        else { return }
        metrics?.record(result)
        if processor.isCostly(result), MainQueue.isCurrent {
            DispatchQueue.global(qos: .userInitiated).async { self.post(processor.process(result)) }
        } else {
            post(processor.process(result))
        }
    }

    nonisolated func post(_ outcome: ResponseProcessor.Outcome) {
        let transfer = UncheckedTransfer(outcome)
        post { $0.outcome = transfer }
    }

    /// Leaves a report in the inbox, and sends the hop that delivers it unless one is on its way.
    private nonisolated func post(_ store: (inout Inbox) -> Void) {
        let (needsHop, mayDeliverInPlace) = lock.withLock { () -> (Bool, Bool) in
            guard inbox.isOpen else { return (false, false) }
            store(&inbox)
            guard !inbox.isHopPending else { return (false, false) }
            inbox.isHopPending = true
            return (true, inbox.mayDeliverInPlace)
        }
        guard needsHop else { return }
        if mayDeliverInPlace, withUnsafeCurrentTask(body: { $0 == nil }), MainQueue.isCurrent {
            // Provably on the main thread, outside any task: the main queue runs the main actor's jobs.
            MainActor.assumeIsolated { deliver() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { self.deliver() } }
        }
    }

    /// Whether a report waits in the inbox for its hop.
    var hasReportInFlight: Bool { lock.withLock { inbox.isHopPending } }

    private func deliver() {
        let (samples, outcome) = lock.withLock {
            defer { (inbox.samples, inbox.outcome, inbox.isHopPending) = ([], nil, false) }
            return (inbox.samples, inbox.outcome)
        }
        guard let handler, !handler.willIgnore else { return }
        // The log scope of the code that started the request, whichever thread or task the route runs on.
        guard let logOverride else { return deliver(samples, outcome, to: handler) }
        ReposeLog.$currentOverride.withValue(logOverride) { deliver(samples, outcome, to: handler) }
    }

    private func deliver(
        _ samples: [(TransferProgress, at: TimeInterval)], _ outcome: UncheckedTransfer<ResponseProcessor.Outcome>?,
        to handler: RequestCompletionHandler
    ) {
        for (sample, time) in samples {
            report(sample, at: time, to: handler)
        }
        if let outcome {
            finish(outcome.value, handler)
        } else if !samples.isEmpty, task != nil {
            joinTicker()  // time moves a body's progress too (rule W7)
        }
    }

    // MARK: Completion

    private func finish(_ outcome: ResponseProcessor.Outcome, _ handler: RequestCompletionHandler) {
        lock.withLock { inbox = Inbox() }
        task?.cancel()  // an outcome decided before the body ended (a download's full disk) stops the transfer
        task = nil
        downloadFile = nil  // moved into place or removed already
        stopProgress()
        outcomeLog?(.network, "\(requestDescription) → \(outcome.logSummary)")
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
        lock.withLock { inbox = Inbox() }  // closed: whatever the provider still reports is dropped
        retryTimer?.cancel()
        retryTimer = nil
        task?.cancel()
        task = nil
        downloadFile?.discard()  // the provider calls back no more after a cancel: nothing else would remove it
        downloadFile = nil
        stopProgress()
        finishMetrics(cancelled: true)
        handler = nil
    }

    // MARK: Retrying (rule R5): whether to, here; the next attempt in NetworkRequest+Retry.swift

    /// How long to wait before another attempt, if the policy wants one after `info`.
    func retryWait(after info: ResponseInfo) -> TimeInterval? {
        guard let policy = retryPolicy, policy.methods.contains(effectiveMethod),
            case .retry(let seconds) = policy.decision(after: info, attempt: attempt)
        else { return nil }
        return seconds
    }

    // MARK: Metrics (rule X1)

    /// The recorder for the attempt about to be sent, made with the first attempt when a monitor listens.
    func startMetrics(_ configuration: Configuration) -> MetricsRecorder? {
        guard metrics != nil || resource.core.monitors.isListening else { return nil }
        let url = urlRequest.url ?? resource.url
        let isFirst = metrics == nil
        let recorder =
            metrics
            ?? MetricsRecorder(
                monitors: resource.core.monitors, resource: resource.url, now: resource.core.now,
                method: effectiveMethod, url: url)
        metrics = recorder
        recorder.attemptStarted(
            isFirst: isFirst, method: effectiveMethod, url: url, bodySize: urlRequest.httpBody?.count ?? 0)
        return recorder
    }

    /// Whether a monitor measures this request.
    var isMeasuring: Bool { metrics != nil }

    /// Tells the monitors, once, that the request completed.
    func finishMetrics(cancelled: Bool = false) {
        guard let recorder = metrics else { return }
        metrics = nil
        resource.latestMetrics = recorder.finish(attempts: priorAttempts + attempt, cancelled: cancelled)
    }
}

// MARK: Progress

/// A network request's progress, in one place: bytes and time made into one value from 0 to 1.
///
/// While nothing of the response has arrived, the request is waiting, and its progress grows with time toward
/// `waitingShare` (a quarter-second wait shows little, a slow server a bar that keeps moving). Once the response
/// starts, the wait's part is fixed where it stands and the bytes fill the rest: their share of the announced length,
/// or, with no length announced, an estimate that grows with the bytes and never reaches the end. While the body
/// comes, time moves the bar too (rule W7): every tick closes part of the distance to the end, so a slow body never
/// stands still. Only completion makes it 1. Time is the service's clock; the service's `ProgressTicker` moves the
/// time-driven part, so there is no timer per request.
extension NetworkRequest {
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

    /// Where the current attempt's progress stands.
    struct ProgressState {
        var minimumInterval: TimeInterval = 0
        var start: TimeInterval = 0
        var lastReportTime: TimeInterval = -.infinity
        var lastFraction = 0.0
        var transfer = 0.0
        /// The waiting part, fixed once the response started; nil while waiting.
        var waited: Double?
        /// When time last moved the bar while the body comes.
        var creptAt: TimeInterval = 0
        /// Whether the service's ticker moves this request.
        var isTicking = false
    }

    func startProgress(minimumInterval: TimeInterval) {
        stopProgress()
        progress = ProgressState(minimumInterval: minimumInterval, start: resource.core.now())
        joinTicker()
    }

    func stopProgress() {
        guard progress.isTicking else { return }
        progress.isTicking = false
        resource.core.progressTicker.remove(self)
    }

    /// Ticks again once bytes arrive, if the wait before them had levelled off and left the ticker (rule W7).
    func joinTicker() {
        guard !progress.isTicking else { return }
        progress.isTicking = true
        resource.core.progressTicker.add(self)
    }

    /// Reports the value a provider's `sample`, taken at `time`, makes, if it is worth reporting.
    func report(_ sample: TransferProgress, at time: TimeInterval, to handler: RequestCompletionHandler) {
        if sample.bytesReceived > 0 || sample.bytesExpectedToReceive != nil, progress.waited == nil {
            progress.waited = Self.waitingPart(after: time - progress.start)
            progress.creptAt = time
        }
        progress.transfer = max(progress.transfer, Self.fraction(of: sample))
        if let fraction = reportable(at: time) { handler.broadcastProgress(fraction) }
    }

    /// Moves the progress with time, for the service's ticker; returns whether ticking it is still worth it.
    func tick() -> Bool {
        guard progress.isTicking, let handler, !handler.willIgnore else { return false }
        // A tick's value is broadcast at once: it must not overtake bytes' values still on their way.
        if hasReportInFlight { return true }
        let time = resource.core.now()
        if let waited = progress.waited {
            let from = max(progress.lastFraction, waited + (1 - waited) * progress.transfer)
            let moved = (Self.ceiling - from) * (1 - pow(2, -(time - progress.creptAt) / Self.bodyHalfLife))
            if time - progress.lastReportTime >= progress.minimumInterval, moved > 0 {
                progress.creptAt = time
                progress.lastFraction = min(from + moved, Self.ceiling)
                progress.lastReportTime = time
                handler.broadcastProgress(progress.lastFraction)
            }
            return progress.isTicking
        }
        if let fraction = reportable(at: time, step: Self.waitingStep) { handler.broadcastProgress(fraction) }
        // Levelled off: the ticker lets it go, and its body's first bytes bring it back.
        progress.isTicking =
            Self.waitingPart(after: time - progress.start) < Self.waitingShare * Self.waitingLevel
            && !handler.willIgnore
        return progress.isTicking
    }

    private func reportable(at time: TimeInterval, step: Double = 0) -> Double? {
        let wait = progress.waited ?? Self.waitingPart(after: time - progress.start)
        let fraction = min(wait + (1 - wait) * progress.transfer, Self.ceiling)
        guard fraction > progress.lastFraction + step, time - progress.lastReportTime >= progress.minimumInterval
        else { return nil }
        progress.lastFraction = fraction
        progress.lastReportTime = time
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
