// The Swift blocks of Docs/Streaming.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@MainActor
final class StreamingGuide {
    final class Console {
        var lines: [String] = []
        func append(_ line: String) { lines.append(line) }
    }
    final class Label { var text = "" }
    struct Story: Decodable, Sendable { let title: String }
    struct Row: Decodable, Sendable { let id: Int }
    final class Database {
        var rows: [Row] = []
        func insert(_ row: Row) throws { rows.append(row) }
    }

    final class Indicator { var isHidden = false }

    let api: Service
    let bubble = Label()
    let typingIndicator = Indicator()
    let console = Console()
    let status = Label()
    let banner = Label()
    let database = Database()
    var stories: [Story] = []

    init(api: Service) {
        self.api = api
    }

    func chatReply() {
        api.configure("/chats/*/reply") {
            $0.streamedContent = .text()
        }

        let reply = api.resource("/chats/7/reply")
        reply.state.observe(owner: self) { screen, state in
            screen.bubble.text = state.text
            screen.typingIndicator.isHidden = !state.isLoading
        }
        reply.loadIfNeeded()
    }

    func storyFeed() {
        struct Story: Decodable, Sendable {
            let id: Int
            let title: String
        }

        api.configure("/feed") {
            $0.streamedContent = .values(of: Story.self, initial: [Int: Story]()) { stories, story in
                stories.merging([story.id: story]) { _, new in new }
            }
        }
    }

    func appendingLog() {
        let buildLog = api.resource("/builds/42/log")
        buildLog.load(streaming: .lines(initial: [String](), reload: .append) { lines, line in lines + [line] })
    }

    func buildLog() async throws {
        let console = console
        let log = api.resource("/builds/42/log").streamRequest()
        for try await line in log.lines {
            console.append(line)
        }
    }

    func export() async throws {
        let status = status
        struct Progress: Decodable, Sendable {
            let step: String
            let done: Int
        }

        let export = api.resource("/exports").streamRequest(.post) { request in
            request.httpBody = Data(#"{"format": "csv"}"#.utf8)
        }
        for try await progress in export.values(of: Progress.self) {
            status.text = "\(progress.step): \(progress.done) %"
        }
    }

    func signal() {
        let feed = api.resource("/feed").streamRequest()
        feed.values(of: Story.self).signal.observe(owner: self) { screen, result in
            switch result {
            case .success(let story): screen.stories.insert(story, at: 0)
            case .failure(let error): screen.banner.text = error.userMessage
            }
        }
    }

    func dump() async throws {
        let database = database
        let dump = api.resource("/exports/all.ndjson").streamRequest(bufferSize: 256 * 1024)
        for try await row in dump.values(of: Row.self) {
            try database.insert(row)  // as slow as it needs to be
        }
    }
}

@MainActor
@Suite("Streaming guide")
struct StreamingGuideTests {
    @Test("U2 U7 the guide's test: lines scripted in pieces split inside a line")
    func testingBlock() async throws {
        let network = StubNetworkingProvider()
        let feed = network.stubStream("https://api.example.com/feed")
        let api = Service(baseURL: "https://api.example.com", options: .init(networking: network))
        let streamed = api.resource("/feed").streamRequest()  // sent now: the stub has it before `open`
        let reading = Task { @MainActor in
            var names: [String] = []
            for try await line in streamed.lines { names.append(line) }
            return names
        }
        await feed.open(headers: ["Content-Type": "text/plain"])
        await feed.send("Ada\nGra")
        await feed.send("ce\n")
        await feed.end()
        #expect(try await reading.value == ["Ada", "Grace"])
    }

    @Test("U2 the guide's build log shows each line")
    func buildLog() async throws {
        let network = StubNetworkingProvider()
        let feed = network.stubStream("https://api.example.com/builds/42/log")
        let guide = StreamingGuide(
            api: Service(baseURL: "https://api.example.com", options: .init(networking: network)))
        let reading = Task { try await guide.buildLog() }
        await waitUntil { feed.isConnected }
        await feed.open(headers: ["Content-Type": "text/plain"])
        await feed.send("compiling\nlinking\n")
        await feed.end()
        try await reading.value
        #expect(guide.console.lines == ["compiling", "linking"])
    }

    @Test("U3 the guide's chat reply shows its text as it grows, the typing indicator until it is complete")
    func chatReplyGrows() async {
        let network = StubNetworkingProvider()
        let stream = network.stubStream("https://api.example.com/chats/7/reply")
        let guide = StreamingGuide(
            api: Service(baseURL: "https://api.example.com", options: .init(networking: network)))
        guide.chatReply()
        await waitUntil { stream.isConnected }
        await stream.open(headers: ["Content-Type": "text/plain"])
        await stream.send("Hello, ")
        await waitUntil { guide.bubble.text == "Hello, " }
        #expect(!guide.typingIndicator.isHidden)
        await stream.send("Ada")
        await stream.end()
        await waitUntil { guide.typingIndicator.isHidden }
        #expect(guide.bubble.text == "Hello, Ada")
    }
}
