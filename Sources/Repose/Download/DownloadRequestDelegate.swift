import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A GET whose body streams to a file (rule X2), through the provider's streaming call
/// (``NetworkingProvider/startStreaming(_:response:body:completion:)``), so that memory stays flat however large the
/// body.
///
/// It is built like any request of its resource (configured headers, mutators, the authenticator's credential) and
/// decorated like one, so a 401 renews the credential and ``Request/repeated()`` downloads again. A
/// ``Configuration/retryPolicy`` sends a failed attempt again after its wait, into a fresh temporary file. Every
/// attempt that does not end in success removes its file: what the app finds at the destination is whole.
@MainActor
final class DownloadRequestDelegate: RequestDelegate {
    private let resource: Resource
    private let destination: URL
    private let buildRequest: @MainActor () -> URLRequest
    private var task: (any NetworkingTask)?
    private var transfer: (file: DownloadFile, state: DownloadTransfer)?
    private var attempt = 1
    private var retryTimer: TimerToken?
    /// Where the outcome goes; held from the start until the outcome is delivered or the download is cancelled.
    private var handler: RequestCompletionHandler?
    /// The download's measurements, while a monitor listens (rule X1); `nil` otherwise.
    private var metrics: MetricsRecorder?

    init(resource: Resource, destination: URL, buildRequest: @escaping @MainActor () -> URLRequest) {
        self.resource = resource
        self.destination = destination
        self.buildRequest = buildRequest
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        handler = completionHandler
        send()
    }

    private func send() {
        ReposeLog.log(.network, requestDescription)
        let now = resource.core.now
        let file: DownloadFile
        do {
            file = try DownloadFile(destination: destination)
        } catch {
            let message = RequestError.displayMessage(for: error) ?? NetworkErrorMessages.generalMessage
            deliver(
                ResponseInfo(response: .failure(RequestError(userMessage: message, cause: error, timestamp: now()))))
            return
        }
        let state = DownloadTransfer(file: file)
        transfer = (file, state)
        let urlRequest = buildRequest()
        let metrics = startMetrics(for: urlRequest)
        // Each callback reaches the main actor through `MainQueue.run`, in order; progress a hundred times at most.
        // The provider holds this delegate (strongly) until the transfer ends, as it does a network request's.
        task = resource.core.networking.startStreaming(
            urlRequest,
            response: { head in
                state.begin(head)
                metrics?.record(.success(head))
            },
            body: { data in
                metrics?.recordBody(data.count)
                guard let sample = state.append(data) else { return }
                MainQueue.run { self.report(sample) }
            },
            completion: { error in
                let outcome = UncheckedTransfer(state.finish(error: error, timestamp: now()))
                MainQueue.run { self.finish(outcome.value, file: file) }
            })
    }

    private func report(_ sample: TransferProgress) {
        guard let handler, let expected = sample.bytesExpectedToReceive, expected > 0 else { return }
        handler.broadcastProgress(min(Double(sample.bytesReceived) / Double(expected), 0.999))
    }

    private func deliver(_ info: ResponseInfo) {
        let handler = handler
        self.handler = nil
        finishMetrics(cancelled: false)
        handler?.broadcastResponse(info)
    }

    private func finish(_ response: Response, file: DownloadFile) {
        guard transfer?.file === file else { return }  // a cancelled attempt's late completion
        task = nil
        transfer = nil
        let info = ResponseInfo(response: response)
        ReposeLog.log(.network, "\(requestDescription) → \(response.error?.userMessage ?? "saved")")
        if let policy = resource.configuration(for: .get).retryPolicy, policy.methods.contains(.get),
            case .retry(let seconds) = policy.decision(after: info, attempt: attempt)
        {
            attempt += 1
            retryTimer = resource.core.timers.after(seconds: seconds) {
                guard self.handler?.willIgnore == false else { return }
                self.retryTimer = nil
                self.send()
            }
            return
        }
        deliver(info)
    }

    func cancelUnderlyingOperation() {
        retryTimer?.cancel()
        retryTimer = nil
        task?.cancel()
        task = nil
        transfer?.file.discard()  // the provider calls back no more after a cancel: nothing else would remove it
        transfer = nil
        handler = nil
        finishMetrics(cancelled: true)
    }

    func repeated() -> any RequestDelegate {
        DownloadRequestDelegate(resource: resource, destination: destination, buildRequest: buildRequest)
    }

    var requestDescription: String {
        "GET \(ReposeLog.describe(url: resource.url)) → file"
    }
}

// MARK: Metrics (rule X1)

extension DownloadRequestDelegate {
    /// The recorder for the attempt about to be sent, when the resource's configuration has monitors.
    fileprivate func startMetrics(for urlRequest: URLRequest) -> MetricsRecorder? {
        let monitors = resource.configuration(for: .get).monitors
        guard !monitors.isEmpty || metrics != nil else { return nil }
        let url = urlRequest.url ?? resource.url
        let isFirst = metrics == nil
        let recorder = metrics ?? MetricsRecorder(monitors: monitors, now: resource.core.now, method: .get, url: url)
        metrics = recorder
        recorder.attemptStarted(isFirst: isFirst, method: .get, url: url, bodySize: 0)
        return recorder
    }

    /// Tells the monitors, once, that the download completed.
    fileprivate func finishMetrics(cancelled: Bool) {
        guard let recorder = metrics else { return }
        metrics = nil
        resource.latestMetrics = recorder.finish(attempts: attempt, cancelled: cancelled)
    }
}
