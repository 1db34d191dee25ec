import Foundation
import Repose
import Testing

/// Streamed bodies from starlette's `StreamingResponse` under uvicorn (`Servers/sse_app.py`), through
/// `URLSessionProvider`: a server nobody here wrote, with its own chunked encoding and pauses (rules U2, U3).
@MainActor
@Suite("Streamed bodies against starlette", .enabled(if: InteropServers.eventStream != nil))
final class StreamingInteropTests {
    let service: Service

    init() throws {
        service = try Interop.service(InteropServers.eventStream)
    }

    struct Story: Decodable, Sendable, Equatable {
        let id: Int
        let title: String
    }

    /// Yields the main actor until `condition` holds or ``Interop/patience`` passes; records an issue if it never holds.
    private func eventually(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(Interop.patience)
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("the condition never held", sourceLocation: sourceLocation)
                return false
            }
            await Task.yield()
        }
        return true
    }

    @Test("U3 a chat-style reply grows word by word: partial while the server holds the rest, then complete")
    func chatReply() async throws {
        service.configure("/words") { $0.streamedContent = .text() }
        let reply = service.resource("/words").withParam("hold", "chat")
        let load = reply.load()
        #expect(await eventually { reply.text == "Hello " })
        #expect(reply.isPartial)
        #expect(reply.isLoading)
        _ = await Interop.outcome(of: service.resource("/release/chat").request(.get))
        _ = await Interop.outcome(of: load)
        #expect(reply.text == "Hello from a streaming server")
        #expect(!reply.isPartial)
        #expect(reply.latestError == nil)
    }

    @Test("U3 an NDJSON feed becomes an array of stories as they arrive")
    func ndjsonFeed() async throws {
        let feed = service.resource("/feed")
        _ = await Interop.outcome(of: feed.load(streaming: .values(of: Story.self)))
        #expect(
            feed.latestData?.content as? [Story] == [
                Story(id: 1, title: "Swift 6"), Story(id: 2, title: "Streams"), Story(id: 3, title: "Repose"),
            ])
        #expect(feed.latestData?.contentType == "application/x-ndjson")
    }

    @Test("U2 a streamed request reads the feed's values as they arrive")
    func streamedRequest() async throws {
        let streamed = service.resource("/feed").streamRequest()
        var titles: [String] = []
        for try await story in streamed.values(of: Story.self) {
            titles.append(story.title)
        }
        #expect(titles == ["Swift 6", "Streams", "Repose"])
    }

    @Test("U3 a body the server drops mid-way keeps what arrived, partial, beside the error")
    func droppedMidway() async throws {
        let broken = service.resource("/broken")
        _ = await Interop.outcome(of: broken.load(streaming: .text()))
        #expect(broken.text == "two words")
        #expect(broken.isPartial)
        #expect(broken.latestError != nil)
    }
}
