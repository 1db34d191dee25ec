import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request sent through the service's networking provider.
///
/// The response is parsed where the provider delivers it (or, for a large body delivered on the main queue, on a
/// background queue; see `ResponseProcessor.process(_:then:)`) and handed to the main actor in a single hop,
/// which also carries any progress reported just before (see `MainActorHandoff`).
///
/// With a ``Configuration/retryPolicy`` (rule R5), a failure the policy retries is not reported: after the policy's
/// wait on the service's scheduler the request is built again from its parts (current headers, credential, ETag)
/// and sent again, as often as the policy allows. The request the caller holds stays the same throughout, and an
/// attempt that succeeds costs nothing more than with no policy.
@MainActor
final class NetworkRequestDelegate: RequestDelegate {
    private let resource: Resource
    private let method: RequestMethod
    private let buildRequest: @MainActor () -> URLRequest
    /// The request as the current attempt sends it.
    private var urlRequest: URLRequest
    private var task: (any NetworkingTask)?
    /// Where the provider's callbacks go, while the request is under way. Weak: the provider's callbacks hold it, and
    /// it holds this delegate until it delivers.
    /// Carries the provider's calls to the main actor; held until the outcome is delivered or the request is
    /// cancelled. (Strong, not weak: a weak reference would cost the handoff a side table, an allocation a load.)
    private var handoff: MainActorHandoff?
    /// Which attempt is under way, from 1 (rule R5).
    private var attempt = 1
    /// The policy's wait before the next attempt, while it runs.
    private var retryTimer: ScheduledWork?
    /// The `network` log handler of the scope that started the request: the outcome's line is written from the
    /// main queue, where a task-scoped handler may no longer be in effect (see `ResponseLog`).
    private var outcomeLog: ReposeLog.MessageHandler?
    /// While the request waits for its response: the sampler that turns time into progress, and where it goes.
    /// Weak: the networking layer holds the handler while the request is in flight.
    /// Whether the service's progress ticker asks this request for waiting progress.
    private var isWaitingProgress = false
    /// Where the service's progress ticker keeps this request while it waits (see `ProgressTicker.remove(_:)`).
    var progressTickerSlot: Int?
    private weak var progressTarget: RequestCompletionHandler?
    /// The request's measurements, while a monitor listens (rule X1); `nil`, the usual case, measures nothing.
    private var metrics: MetricsRecorder?
    /// Attempts made before this request by the one it repeats (the authenticator's repeat after a 401).
    private var priorAttempts = 0

    init(resource: Resource, method: RequestMethod, buildRequest: @escaping @MainActor () -> URLRequest) {
        self.resource = resource
        self.method = method
        self.buildRequest = buildRequest
        let urlRequest = buildRequest()
        self.urlRequest = urlRequest
        effectiveMethod = Self.method(of: urlRequest) ?? method
    }

    /// The method after mutation: what later configuration (decorators, pipeline) is chosen by. Read from each
    /// built request once: each read of `URLRequest.httpMethod` goes through Foundation's request object, and a
    /// request asks for its method four times or more.
    private(set) var effectiveMethod: RequestMethod

    /// The request's method as a ``RequestMethod``, in whatever case it was set.
    private static func method(of request: URLRequest) -> RequestMethod? {
        guard let name = request.httpMethod else { return nil }
        return RequestMethod(rawValue: name) ?? RequestMethod(rawValue: name.uppercased())
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        send(to: completionHandler)
    }

    /// Sends the current attempt.
    private func send(to completionHandler: RequestCompletionHandler) {
        ReposeLog.log(.network, requestDescription)
        ReposeLog.log(.networkDetails, ReposeLog.describe(urlRequest))
        outcomeLog = LogSettings.handler(for: .network)
        let configuration = resource.configuration(for: effectiveMethod)
        retryPolicy = configuration.retryPolicy
        // Only GETs carry the resource's state, so only they fill its caches.
        let processor = ResponseProcessor(
            pipeline: configuration.pipeline, now: resource.core.now,
            cacheTargets: effectiveMethod == .get ? configuration.pipeline.cacheTargets(for: resource) : [],
            log: ResponseLog(method: effectiveMethod, url: urlRequest.url ?? resource.url))
        let sampler = ProgressSampler(
            minimumInterval: configuration.progressReportingInterval, now: resource.core.now)
        let metrics = startMetrics(configuration)
        let handoff = MainActorHandoff(sampler: sampler) { fractions, outcome in
            for fraction in fractions {
                completionHandler.broadcastProgress(fraction)
            }
            if let outcome {
                self.finish(outcome, completionHandler)
            } else if !fractions.isEmpty {
                self.tickWhileBodyComes()
            }
        }
        completionHandler.carryHops(through: handoff)
        self.handoff = handoff
        isWaitingProgress = true
        progressTarget = completionHandler
        resource.core.progressTicker.add(self)
        guard let metrics else {
            task = resource.core.networking.startRequest(
                urlRequest,
                maximumResponseSize: configuration.maximumResponseSize,
                progress: { sample in handoff.send(sample: sample) },
                completion: { result in
                    processor.process(result) { outcome in handoff.send(outcome: outcome) }
                })
            handoff.allowDirectDelivery(true)
            return
        }
        // Measured (rule X1): separate closures, so that an unmeasured request's stay exactly as they were (a
        // closure that captures one object needs no allocation of its own).
        task = resource.core.networking.startRequest(
            urlRequest,
            maximumResponseSize: configuration.maximumResponseSize,
            progress: { sample in
                metrics.record(sample)
                handoff.send(sample: sample)
            },
            completion: { result in
                metrics.record(result)
                processor.process(result) { outcome in handoff.send(outcome: outcome) }
            })
        handoff.allowDirectDelivery(true)
    }

    private func finish(_ outcome: ResponseProcessor.Outcome, _ completionHandler: RequestCompletionHandler) {
        task = nil
        stopWaitingProgress()
        handoff = nil  // it holds this delegate until now
        outcomeLog?(.network, "\(requestDescription) → \(outcome.logSummary)")
        let info = responseInfo(for: outcome)
        if let wait = retryWait(after: info) {
            retry(after: wait, completionHandler)
        } else {
            finishMetrics()
            completionHandler.broadcastResponse(info)
        }
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
                cause: RequestError.Cause.NoLocalDataFor304(), httpStatusCode: 304,
                timestamp: resource.core.now())
            return ResponseInfo(response: .failure(error))
        }
    }

    // MARK: Retrying

    /// The retry policy of the current attempt's method, if it covers that method.
    private var retryPolicy: RetryPolicy?

    /// Whether the request waits for its next attempt.
    var isWaitingToRetry: Bool { retryTimer != nil }

    /// How long to wait before another attempt, if the policy wants one after `info`.
    private func retryWait(after info: ResponseInfo) -> TimeInterval? {
        guard let policy = retryPolicy, policy.methods.contains(effectiveMethod),
            case .retry(let seconds) = policy.decision(after: info, attempt: attempt)
        else { return nil }
        return seconds
    }

    private func retry(after seconds: TimeInterval, _ completionHandler: RequestCompletionHandler) {
        attempt += 1
        outcomeLog?(
            .network,
            "\(requestDescription): attempt \(attempt) of \(retryPolicy?.maximumAttempts ?? attempt) in \(seconds) s")
        // The service's scheduler runs actions on the main actor (see `Resource.cancelLoadIfUnobserved`); the
        // timer holds this delegate while the request waits, as the networking layer does while it is in flight.
        retryTimer = resource.core.scheduler.schedule(after: .nanoseconds(Int64((seconds * 1e9).rounded()))) {
            MainActor.assumeIsolated {
                guard !completionHandler.willIgnore else { return }
                self.retryTimer = nil
                self.urlRequest = self.buildRequest()  // built now: what is current after the wait
                self.effectiveMethod = Self.method(of: self.urlRequest) ?? self.method
                self.send(to: completionHandler)
            }
        }
    }

    func cancelUnderlyingOperation() {
        handoff?.allowDirectDelivery(false)
        handoff = nil
        retryTimer?.cancel()
        retryTimer = nil
        task?.cancel()
        task = nil
        stopWaitingProgress()
        finishMetrics(cancelled: true)
    }

    /// Ticks the progress again once bytes arrive, if the wait before them had levelled off and left the ticker: time
    /// moves a body's progress too (rule W7).
    private func tickWhileBodyComes() {
        guard !isWaitingProgress, handoff != nil else { return }
        isWaitingProgress = true
        resource.core.progressTicker.add(self)
    }

    private func stopWaitingProgress() {
        guard isWaitingProgress else { return }
        isWaitingProgress = false
        resource.core.progressTicker.remove(self)
    }

    func repeated() -> any RequestDelegate {
        let repeated = NetworkRequestDelegate(resource: resource, method: method, buildRequest: buildRequest)
        repeated.priorAttempts = priorAttempts + attempt
        return repeated
    }

    var requestDescription: String {
        "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
    }
}

extension NetworkRequestDelegate: ProgressWaiter {
    func tickWaitingProgress() -> Bool {
        guard isWaitingProgress, let handoff, let target = progressTarget, !target.willIgnore else { return false }
        let (fraction, isWaiting) = handoff.reportWaiting()
        if let fraction { target.broadcastProgress(fraction) }
        // A request the ticker lets go says so, so that its body's first bytes can bring it back.
        isWaitingProgress = isWaiting && !target.willIgnore
        return isWaitingProgress
    }
}

// MARK: Metrics (rule X1)

extension NetworkRequestDelegate {
    /// The recorder for the attempt about to be sent, made with the request's first attempt when `configuration` has
    /// monitors; `nil` otherwise.
    fileprivate func startMetrics(_ configuration: Configuration) -> MetricsRecorder? {
        guard !configuration.monitors.isEmpty || metrics != nil else { return nil }
        let url = urlRequest.url ?? resource.url
        let isFirst = metrics == nil
        let recorder =
            metrics
            ?? MetricsRecorder(
                monitors: configuration.monitors, now: resource.core.now, method: effectiveMethod, url: url)
        metrics = recorder
        recorder.attemptStarted(
            isFirst: isFirst, method: effectiveMethod, url: url, bodySize: urlRequest.httpBody?.count ?? 0)
        return recorder
    }

    /// Whether a monitor measures this request.
    var isMeasuring: Bool { metrics != nil }

    /// Tells the monitors, once, that the request completed.
    fileprivate func finishMetrics(cancelled: Bool = false) {
        guard let recorder = metrics else { return }
        metrics = nil
        let result = recorder.finish(attempts: priorAttempts + attempt, cancelled: cancelled)
        resource.latestMetrics = result
    }
}
