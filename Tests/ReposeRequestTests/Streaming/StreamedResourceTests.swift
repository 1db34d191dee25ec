import Foundation
import Repose
import ReposeSignals
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Streamed resources over the stub provider, scripted piece by piece: content that grows as the body arrives
/// (rules U3, U6).
@MainActor
@Suite("Streamed resources")
struct StreamedResourceTests {
    let network = StubNetworkingProvider()
    let service: Service
    let feed: StubEventStream
    let heard = SignalOwner()

    init() {
        feed = network.stubStream("https://api.example.com/reply")
        service = Service(
            baseURL: "https://api.example.com",
            options: .init(networking: network, scheduler: TestScheduler(now: .seconds(1000))))
    }

    /// Observes `resource`, noting each event with the text content and whether it is partial.
    private func listen(to resource: Resource) {
        let heard = heard
        resource.addObserver(owner: heard) { resource, event in
            guard case .newData(let source) = event else { return }
            let text = resource.latestData?.content as? String ?? "\(resource.latestData?.content ?? "nil")"
            heard.values.append("\(source.rawValue) \(text)\(resource.isPartial ? " (partial)" : "")")
        }
    }

    private func open() async {
        await waitUntil { feed.isConnected }
        await feed.open(headers: ["Content-Type": "text/plain; charset=utf-8"])
    }

    @Test("U3 a configured resource's text grows as pieces arrive; observers hear it partial, then complete")
    func textGrows() async {
        service.configure("/reply") { $0.streamedContent = .text() }
        let reply = service.resource("/reply")
        listen(to: reply)
        let load = reply.load()
        await open()
        await feed.send("Hel")
        await waitUntil { heard.values == ["partial Hel (partial)"] }
        #expect(reply.isLoading)
        #expect(reply.state.value.isPartial)
        await feed.send("lo")
        await waitUntil { heard.values.last == "partial Hello (partial)" }
        await feed.end()
        _ = await load.response
        #expect(heard.values.last == "network Hello")
        #expect(!reply.isLoading)
        #expect(!reply.isPartial)
        #expect(reply.latestData?.contentType == "text/plain; charset=utf-8")
        #expect(reply.loadIfNeeded() == nil)  // fresh
    }

    @Test("U3 a character split between two pieces arrives whole")
    func splitCharacter() async {
        let reply = service.resource("/reply")
        let load = reply.load(streaming: .text())
        await open()
        let bytes = Data("añb".utf8)
        await feed.send(bytes.prefix(2))  // "a" and the first byte of "ñ"
        await waitUntil { reply.text == "a" }
        await feed.send(bytes.dropFirst(2))
        await feed.end()
        _ = await load.response
        #expect(reply.text == "añb")
    }

    @Test("U3 a failure mid-stream keeps what arrived, marked partial, beside the error")
    func failureKeepsWhatArrived() async {
        let reply = service.resource("/reply")
        let load = reply.load(streaming: .lines(initial: [String]()) { $0 + [$1] })
        await open()
        await feed.send("one\ntwo\nthr")
        await waitUntil { reply.latestData?.content as? [String] == ["one", "two"] }
        await feed.fail()
        _ = await load.response
        #expect(reply.latestData?.content as? [String] == ["one", "two"])
        #expect(reply.isPartial)
        #expect(reply.latestError != nil)
        #expect(!reply.isLoading)
    }

    @Test("U3 a reload replaces the content from its first piece on; until then the old content shows")
    func reloadReplaces() async {
        let reply = service.resource("/reply")
        let first = reply.load(streaming: .lines(initial: [String]()) { $0 + [$1] })
        await open()
        await feed.send("a\nb\n")
        await feed.end()
        _ = await first.response
        let second = reply.load(streaming: .lines(initial: [String]()) { $0 + [$1] })
        await open()
        #expect(reply.latestData?.content as? [String] == ["a", "b"])
        #expect(!reply.isPartial)
        await feed.send("c\n")
        await feed.end()
        _ = await second.response
        #expect(reply.latestData?.content as? [String] == ["c"])
    }

    @Test("U3 a reload that appends goes on from the content the resource holds")
    func reloadAppends() async {
        service.configure("/reply") {
            $0.streamedContent = .lines(initial: [String](), reload: .append) { $0 + [$1] }
        }
        let reply = service.resource("/reply")
        for piece in ["a\nb\n", "c\n"] {
            let load = reply.load()
            await open()
            await feed.send(piece)
            await feed.end()
            _ = await load.response
        }
        #expect(reply.latestData?.content as? [String] == ["a", "b", "c"])
    }

    struct Story: Decodable, Sendable, Equatable {
        let id: Int
    }

    @Test("U3 U6 NDJSON values collect into an array; the reducer runs off the main thread")
    func ndjsonFeed() async {
        final class Threads: @unchecked Sendable {
            var reducedOnMain: [Bool] = []
        }
        let threads = Threads()
        let feedResource = service.resource("/reply")
        let load = feedResource.load(
            streaming: .values(of: Story.self, initial: [Story]()) { stories, story in
                threads.reducedOnMain.append(Thread.isMainThread)
                return stories + [story]
            })
        await open()
        await feed.send("{\"id\": 1}\n{\"id\"")
        await feed.send(": 2}\n")
        await feed.end()
        _ = await load.response
        #expect(feedResource.latestData?.content as? [Story] == [Story(id: 1), Story(id: 2)])
        #expect(threads.reducedOnMain == [false, false])
    }

    @Test("U3 an error status fails the load and keeps the data the resource had")
    func errorStatus() async {
        let reply = service.resource("/reply")
        reply.overrideLocalContent(with: "earlier")
        let load = reply.load(streaming: .text())
        await waitUntil { feed.isConnected }
        await feed.open(status: 500, headers: ["Content-Type": "text/plain"])
        await feed.send("broken")
        await feed.end()
        _ = await load.response
        #expect(reply.latestError?.httpStatusCode == 500)
        #expect(reply.text == "earlier")
        #expect(!reply.isPartial)
    }

    @Test("U3 cancelling the load cancels the stream; loadIfNeeded joins the load in flight")
    func cancelAndDedup() async {
        service.configure("/reply") { $0.streamedContent = .text() }
        let reply = service.resource("/reply")
        let load = reply.loadIfNeeded()
        #expect(reply.loadIfNeeded() === load)
        await open()
        await feed.send("partial")
        await waitUntil { reply.text == "partial" }
        load?.cancel()
        await waitUntil { !feed.isConnected }
        #expect(!reply.isLoading)
        #expect(reply.isPartial)
    }

    @Test("U3 a streamed load describes itself with its URL's secrets redacted")
    func describedRedacted() {
        let reply = service.resource("/reply").withParam("access_token", "s3cret")
        let description = StreamedLoad(resource: reply, content: .text()).requestDescription
        #expect(description.contains("/reply?access_token=<redacted> (streamed load)"))
        #expect(!description.contains("s3cret"))
    }
}
