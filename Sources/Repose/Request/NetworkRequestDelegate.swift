import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request sent through the service's networking provider.
///
/// The response is parsed where the provider delivers it (or, for a large body delivered on the main queue, on a
/// background queue; see `ResponseProcessor.process(_:then:)`) and handed to the main actor in a single hop,
/// which also carries any progress reported just before (see `MainActorHandoff`).
@MainActor
final class NetworkRequestDelegate: RequestDelegate {
    private let resource: Resource
    private let method: RequestMethod
    private let buildRequest: @MainActor () -> URLRequest
    private let urlRequest: URLRequest
    private var task: (any NetworkingTask)?
    /// Where the provider's callbacks go, while the request is under way. Weak: the provider's callbacks hold it, and
    /// it holds this delegate until it delivers.
    private weak var handoff: MainActorHandoff?
    /// The `network` log handler of the scope that started the request: the outcome's line is written from the
    /// main queue, where a task-scoped handler may no longer be in effect (see `ResponseLog`).
    private var outcomeLog: ReposeLog.MessageHandler?

    init(resource: Resource, method: RequestMethod, buildRequest: @escaping @MainActor () -> URLRequest) {
        self.resource = resource
        self.method = method
        self.buildRequest = buildRequest
        let urlRequest = buildRequest()
        self.urlRequest = urlRequest
        effectiveMethod = Self.method(of: urlRequest) ?? method
    }

    /// The method after mutation: what later configuration (decorators, pipeline) is chosen by. Read from the
    /// built request once: each read of `URLRequest.httpMethod` goes through Foundation's request object, and a
    /// request asks for its method four times or more (3 % of a chained stub load on the main thread).
    let effectiveMethod: RequestMethod

    /// The request's method as a ``RequestMethod``, in whatever case it was set.
    private static func method(of request: URLRequest) -> RequestMethod? {
        guard let name = request.httpMethod else { return nil }
        return RequestMethod(rawValue: name) ?? RequestMethod(rawValue: name.uppercased())
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        ReposeLog.log(.network, requestDescription)
        ReposeLog.log(.networkDetails, ReposeLog.describe(urlRequest))
        outcomeLog = LogSettings.handler(for: .network)
        let configuration = resource.configuration(for: effectiveMethod)
        // Only GETs carry the resource's state, so only they fill its caches.
        let processor = ResponseProcessor(
            pipeline: configuration.pipeline, now: resource.core.now,
            cacheTargets: effectiveMethod == .get ? configuration.pipeline.cacheTargets(for: resource) : [],
            log: ResponseLog(method: effectiveMethod, url: urlRequest.url ?? resource.url))
        let progress = ProgressSampler(
            minimumInterval: configuration.progressReportingInterval, now: resource.core.now)
        let handoff = MainActorHandoff { fractions, outcome in
            for fraction in fractions {
                completionHandler.broadcastProgress(fraction)
            }
            if let outcome {
                self.finish(outcome, completionHandler)
            }
        }
        completionHandler.carryHops(through: handoff)
        task = resource.core.networking.startRequest(
            urlRequest,
            maximumResponseSize: configuration.maximumResponseSize,
            progress: { sample in
                guard let fraction = progress.report(sample) else { return }
                handoff.send(progress: fraction)
            },
            completion: { result in
                processor.process(result) { outcome in handoff.send(outcome: outcome) }
            })
        handoff.allowDirectDelivery(true)
        self.handoff = handoff
    }

    private func finish(_ outcome: ResponseProcessor.Outcome, _ completionHandler: RequestCompletionHandler) {
        task = nil
        outcomeLog?(.network, "\(requestDescription) → \(outcome.logSummary)")
        switch outcome {
        case .response(let response):
            completionHandler.broadcastResponse(ResponseInfo(response: response))
        case .notModified:
            if let existing = resource.record.latestData {
                completionHandler.broadcastResponse(ResponseInfo(response: .success(existing), isNew: false))
            } else {
                let error = RequestError(
                    userMessage: "The server said nothing changed, but there is no saved data.",
                    cause: RequestError.Cause.NoLocalDataFor304(), httpStatusCode: 304,
                    timestamp: resource.core.now())
                completionHandler.broadcastResponse(ResponseInfo(response: .failure(error)))
            }
        }
    }

    func cancelUnderlyingOperation() {
        handoff?.allowDirectDelivery(false)
        task?.cancel()
        task = nil
    }

    func repeated() -> any RequestDelegate {
        NetworkRequestDelegate(resource: resource, method: method, buildRequest: buildRequest)
    }

    var requestDescription: String {
        "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
    }
}
