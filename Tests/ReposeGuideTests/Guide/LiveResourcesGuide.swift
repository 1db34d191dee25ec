// The Swift blocks of Docs/LiveResources.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose
import ReposeTesting

@testable import ReposeTestSupport

enum LiveResourcesGuide {
    @MainActor final class RepoScreen {
        let repo: Resource
        let live: EventStream  // the screen keeps its stream: a stream nobody keeps closes

        init(api: Service, path: String) {
            repo = api.resource(path)
            live = api.eventStream("/events")
                .on("star", .invalidate())  // {"url": "/repos/7"}: that repository goes stale, and reloads if observed
                .on("repo", .replaceContent())  // the event's JSON is the repository's new content
            repo.addObserver(owner: self) { resource, event in
                // .newData(.network) after a reload, .newData(.eventStream) after a replacement
            }
            live.connection.observe(owner: self) { screen, state in screen.showFeed(state) }  // this connects
            repo.loadIfNeeded()
        }

        func showFeed(_ state: EventStream.Connection) {
            switch state {
            case .open: print("live")
            case .connecting: print("connecting…")
            case .failed(let error): print("not live: \(error.userMessage)")
            default: print("not live")  // closed, and any state a later version adds
            }
        }
    }

    @MainActor
    static func wiring() {
        func wire(_ live: EventStream, api: Service) {
            live.on("comment", .invalidate { event in [api.resource("/posts/\(event.data)/comments")] })
            live.on("reset", .reload { _ in [api.resource("/stars")] })
            live.on("profile", .replaceContent { _ in [api.resource("/me")] })
        }
        _ = wire
    }

    @MainActor final class Toasts {
        func listen(to live: EventStream) {
            live.events.observe(owner: self) { toasts, event in toasts.show(event.data) }
        }

        func show(_ text: String) {}
    }

    @MainActor func liveStarCount() async {
        let network = StubNetworkingProvider()
        let feed = network.stubEventStream("https://api.example.com/events")
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        let live = api.eventStream("/events").on("star", .invalidate())
        let watching = live.connection.observe { print($0) }  // connecting
        await feed.open()  // 200 text/event-stream: open
        await feed.send("event: star\ndata: /repos/7\n\n")
        await feed.end()  // connecting, until the retry interval passes on the service's clock
        watching.cancel()  // closed
    }
}
