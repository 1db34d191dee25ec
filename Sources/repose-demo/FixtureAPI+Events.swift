import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FixtureAPI {
    /// The fixture's event streams: `GET /repos/OWNER/REPO/events` is a live feed in which someone else stars the
    /// repository every few moments (four latencies apart), each time sending a `star` event that names it:
    /// `{"url": ".../repos/OWNER/REPO"}`. `nil` for any other request.
    func startLiveFeed(_ request: URLRequest, into sink: any ResponseSink) -> (any NetworkingTask)? {
        let parts = request.url?.path.split(separator: "/").map(String.init) ?? []
        guard parts.count == 4, parts[0] == "repos", parts[3] == "events" else { return nil }
        let fullName = "\(parts[1])/\(parts[2])"
        let task = FixtureTask()
        let feed = LiveFeed(fixture: self, fullName: fullName, task: task, sink: sink)
        let known = withServer { $0.hasRepository(fullName) }  // `nil` while offline
        Self.feedQueue.asyncAfter(deadline: .now() + timing.latency.interval) {
            guard !task.isCancelled else { return }
            switch known {
            case nil:
                sink.finish(URLError(.notConnectedToInternet))
            case false:
                sink.deliver(.success(NetworkResponse(statusCode: 404)))
            case true:
                let head = NetworkResponse(statusCode: 200, headers: ["Content-Type": "text/event-stream"])
                guard sink.receive(head), sink.receive(Data(": a live feed of \(fullName)\nretry: 1000\n\n".utf8))
                else { return }
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
    let sink: any ResponseSink

    /// Sends event `number` after `interval`, then the next; ends the stream after a thousand.
    func next(number: Int, after interval: Duration) {
        FixtureAPI.feedQueue.asyncAfter(deadline: .now() + interval.interval) {
            guard !task.isCancelled else { return }
            guard number <= 1_000, fixture.withServer({ $0.starByAnotherUser(fullName) }) == true else {
                return sink.finish()
            }
            let named = #"{"url": "\#(FixtureAPI.baseURL)/repos/\#(fullName)"}"#
            guard sink.receive(Data("id: \(number)\nevent: star\ndata: \(named)\n\n".utf8)) else { return }
            next(number: number + 1, after: interval)
        }
    }
}
