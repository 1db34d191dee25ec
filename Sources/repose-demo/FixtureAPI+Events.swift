import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureAPI {
    /// The fixture's event streams: `GET /repos/OWNER/REPO/events` is a live feed in which someone else stars the
    /// repository every few moments (four latencies apart), each time sending a `star` event that names it:
    /// `{"url": ".../repos/OWNER/REPO"}`. Any other request is answered as ``startRequest(_:progress:completion:)``
    /// answers it, in one piece.
    func startStreaming(
        _ request: URLRequest,
        response: @escaping @Sendable (NetworkResponse) -> Void,
        body: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any NetworkingTask {
        let parts = request.url?.path.split(separator: "/").map(String.init) ?? []
        guard parts.count == 4, parts[0] == "repos", parts[3] == "events" else {
            return startRequest(request, progress: { _ in }) { result in
                switch result {
                case .success(let whole):
                    response(NetworkResponse(statusCode: whole.statusCode, headers: whole.headers))
                    body(whole.body)
                    completion(nil)
                case .failure(let error):
                    completion(error)
                }
            }
        }
        let fullName = "\(parts[1])/\(parts[2])"
        let task = FixtureTask()
        let feed = LiveFeed(fixture: self, fullName: fullName, task: task, body: body, completion: completion)
        let known = withServer { $0.hasRepository(fullName) }  // `nil` while offline
        Self.feedQueue.asyncAfter(deadline: .now() + timing.latency.interval) {
            guard !task.isCancelled else { return }
            switch known {
            case nil:
                completion(URLError(.notConnectedToInternet))
            case false:
                response(NetworkResponse(statusCode: 404))
                completion(nil)
            case true:
                response(NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/event-stream"]))
                body(Data(": a live feed of \(fullName)\nretry: 1000\n\n".utf8))
                feed.next(number: 1, after: self.timing.latency * 4)
            }
        }
        return task
    }

    /// Where every live feed's events are timed.
    fileprivate static let feedQueue = DispatchQueue(label: "repose-demo.fixture.events")
}

/// One connection to a live feed: a star and an event every `interval`, until the connection is cancelled.
private struct LiveFeed: Sendable {
    let fixture: FixtureAPI
    let fullName: String
    let task: FixtureTask
    let body: @Sendable (Data) -> Void
    let completion: @Sendable ((any Error)?) -> Void

    /// Sends event `number` after `interval`, then the next; ends the stream after a thousand.
    func next(number: Int, after interval: Duration) {
        FixtureAPI.feedQueue.asyncAfter(deadline: .now() + interval.interval) {
            guard !task.isCancelled else { return }
            guard number <= 1_000, fixture.withServer({ $0.starByAnotherUser(fullName) }) == true else {
                return completion(nil)
            }
            let named = #"{"url": "\#(FixtureAPI.baseURL)/repos/\#(fullName)"}"#
            body(Data("id: \(number)\nevent: star\ndata: \(named)\n\n".utf8))
            next(number: number + 1, after: interval)
        }
    }
}
