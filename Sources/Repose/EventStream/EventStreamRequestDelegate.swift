import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One connection attempt of an ``EventStream``, as a ``Request``: configured decorators (the authenticator's
/// refresh on a 401 among them) wrap it like any request (rule V5).
///
/// The request completes when the attempt ends: with a failure when the server refused the stream (an error
/// status, a 204, a content type other than `text/event-stream`) or the transport failed, with an empty success
/// when an open stream's body ended. While it is open, the body goes straight to the stream's runner, not through
/// the request: the request's one response comes only at the end.
@MainActor
final class EventStreamRequestDelegate: RequestDelegate {
    private weak var runner: EventStreamRunner?
    private let resource: Resource
    private let urlRequest: URLRequest
    private var task: (any NetworkingTask)?
    /// Where the attempt's one response goes; held until then.
    private var completionHandler: RequestCompletionHandler?
    /// Whether the attempt has ended (or was cancelled): later callbacks of its transfer are ignored.
    private var isFinished = false

    init(runner: EventStreamRunner, resource: Resource) {
        self.runner = runner
        self.resource = resource
        let lastEventID = runner.lastEventID
        urlRequest = resource.buildURLRequest(.get, body: nil) { request in
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.setValue("no-store", forHTTPHeaderField: "Cache-Control")
            if !lastEventID.isEmpty {
                request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
            }
        }
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        guard let runner else { return }
        self.completionHandler = completionHandler
        ReposeLog.log(.network, requestDescription)
        let reader = EventStreamReader(
            lastEventID: runner.lastEventID, maximumEventSize: resource.configuration.maximumResponseSize,
            now: resource.core.now)
        let started = resource.core.networking.startStreaming(
            urlRequest,
            // Each callback holds this delegate weakly: a provider may keep its callbacks after the transfer ends
            // (the stub records them), and the delegate holds the resource, and so the service's core.
            response: { [weak self] head in
                let refusal = reader.accept(head)
                MainQueue.run {
                    if let refusal {
                        self?.finish(.failure(refusal))
                    } else if self?.isFinished == false {
                        self?.runner?.opened()
                    }
                }
            },
            body: { [weak self] bytes in
                switch reader.read(bytes) {
                case .success(nil):
                    break
                case .success(let batch?):
                    MainQueue.run {
                        if self?.isFinished == false { self?.runner?.received(batch) }
                    }
                case .failure(let tooLarge):
                    MainQueue.run { self?.finish(.failure(tooLarge)) }
                }
            },
            completion: { [weak self] error in
                let outcome = reader.ended(with: error)
                MainQueue.run { self?.finish(outcome) }
            })
        if isFinished {
            started.cancel()  // the stub answered before `startStreaming` returned
        } else {
            task = started
        }
    }

    /// Ends the attempt once: a refused stream's body is not read.
    private func finish(_ outcome: Response) {
        guard !isFinished else { return }
        let handler = completionHandler
        cancelUnderlyingOperation()
        handler?.broadcastResponse(ResponseInfo(response: outcome))
    }

    func cancelUnderlyingOperation() {
        isFinished = true
        completionHandler = nil
        task?.cancel()
        task = nil
    }

    func repeated() -> any RequestDelegate {
        guard let runner else { return self }
        return EventStreamRequestDelegate(runner: runner, resource: resource)  // with the current credential and id
    }

    var requestDescription: String {
        "GET \(ReposeLog.describe(url: resource.url)) (event stream)"
    }
}
