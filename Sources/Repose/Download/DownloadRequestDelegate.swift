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
final class DownloadRequestDelegate: RetryingRequest {
    private let resource: Resource
    private let destination: URL
    private let buildRequest: @MainActor () -> URLRequest
    private var task: (any NetworkingTask)?
    private var transfer: (file: DownloadFile, state: DownloadTransfer)?
    /// The attempt under way, its retry, measurements and log, as a network request keeps them.
    var attempts: Attempts
    /// Where the outcome goes; held from the start until the outcome is delivered or the download is cancelled.
    var handler: RequestCompletionHandler?

    init(resource: Resource, destination: URL, buildRequest: @escaping @MainActor () -> URLRequest) {
        self.resource = resource
        self.destination = destination
        self.buildRequest = buildRequest
        attempts = Attempts(resource: resource)
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        handler = completionHandler
        send()
    }

    private func send() {
        let urlRequest = buildRequest()
        attempts.begin(requestDescription, urlRequest)
        let now = resource.core.now
        let file: DownloadFile
        do {
            file = try DownloadFile(destination: destination)
        } catch {
            let message = (error as? LocalizedError)?.errorDescription ?? NetworkErrorMessages.generalMessage
            return finish(.failure(RequestError(userMessage: message, cause: error, timestamp: now())))
        }
        let state = DownloadTransfer(file: file)
        transfer = (file, state)
        let metrics = attempts.startMetrics(resource.configuration(for: .get), .get, urlRequest)
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
                MainQueue.run {
                    guard self.transfer?.file === file else { return }  // a cancelled attempt's late completion
                    self.finish(outcome.value)
                }
            })
    }

    private func report(_ sample: TransferProgress) {
        guard let handler, let expected = sample.bytesExpectedToReceive, expected > 0 else { return }
        handler.broadcastProgress(min(Double(sample.bytesReceived) / Double(expected), 0.999))
    }

    private func finish(_ response: Response) {
        task = nil
        transfer = nil
        conclude(
            ResponseInfo(response: response), response.error?.userMessage ?? "saved", .get,
            resource.configuration(for: .get).retryPolicy)
    }

    func sendNext() {
        send()
    }

    func cancelUnderlyingOperation() {
        task?.cancel()
        task = nil
        transfer?.file.discard()  // the provider calls back no more after a cancel: nothing else would remove it
        transfer = nil
        handler = nil
        attempts.cancel()
    }

    func repeated() -> any RequestDelegate {
        DownloadRequestDelegate(resource: resource, destination: destination, buildRequest: buildRequest)
    }

    var requestDescription: String {
        "GET \(ReposeLog.describe(url: resource.url)) → file"
    }
}
