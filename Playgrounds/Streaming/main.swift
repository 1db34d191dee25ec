// Streaming: bodies shown as they arrive. Run it with `swift run Streaming`. No network: a StubNetworkingProvider
// plays the server, sending each body piece by piece, as a model's reply or an NDJSON feed arrives.
import Foundation
import Repose
import ReposeTesting

func step(_ title: String) {
    print("\n== \(title)")
}

struct Story: Decodable, Sendable {
    let id: Int
    let title: String
}

@MainActor
func tour() async {
    let network = StubNetworkingProvider()
    let service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
    let replyServer = network.stubStream("https://api.example.com/chats/7/reply")
    let feedServer = network.stubStream("https://api.example.com/feed")

    step("1. A chat reply: configured as text, it grows token by token; observers hear it partial, then complete")
    service.configure("/chats/*/reply") { $0.streamedContent = .text() }
    let reply = service.resource("/chats/7/reply")
    let screen = NSObject()  // stands for the view that shows the reply
    reply.addObserver(owner: screen) { reply, event in
        guard case .newData(let source) = event else { return }
        print("  \(source): \"\(reply.text)\"\(reply.isPartial ? " (partial: still typing…)" : "")")
    }
    let load = reply.loadIfNeeded()
    await replyServer.open(headers: ["Content-Type": "text/plain; charset=utf-8"])
    for token in ["Streams ", "arrive ", "piece ", "by ", "piece."] {
        await replyServer.send(token)
        await settle { reply.text.hasSuffix(token) }
    }
    await replyServer.end()
    _ = await load?.response

    step("2. An NDJSON feed: one story per line, reduced into a list by id as the lines arrive")
    service.configure("/feed") {
        $0.streamedContent = .values(of: Story.self, initial: [Int: Story]()) { stories, story in
            stories.merging([story.id: story]) { _, new in new }
        }
    }
    let feed = service.resource("/feed")
    let feedLoad = feed.load()
    await feedServer.open(headers: ["Content-Type": "application/x-ndjson"])
    await feedServer.send("{\"id\": 1, \"title\": \"Swift 6 ships\"}\n{\"id\": 2, \"title\": \"Str")
    await settle { feed.isPartial }
    print("  so far: \(titles(feed)) (the second line is still arriving)")
    await feedServer.send("eams land\"}\n{\"id\": 1, \"title\": \"Swift 6 ships, updated\"}\n")
    await feedServer.end()
    _ = await feedLoad.response
    print("  complete: \(titles(feed)), partial: \(feed.isPartial)")

    step("3. The connection drops mid-reply: what arrived stays, marked partial, beside the error")
    let cut = reply.load()
    await replyServer.open(headers: ["Content-Type": "text/plain; charset=utf-8"])
    await replyServer.send("Half a ")
    await settle { reply.text == "Half a " }
    await replyServer.fail()
    _ = await cut.response
    print("  shown: \"\(reply.text)\", partial: \(reply.isPartial), error: \(reply.latestError?.userMessage ?? "none")")

    step("4. The same body read in a loop of your own: a streamed request, line by line")
    let lines = service.resource("/feed").streamRequest()
    let reading = Task { @MainActor in
        var count = 0
        for try await line in lines.lines {
            count += 1
            print("  line \(count): \(line)")
        }
    }
    await feedServer.open(headers: ["Content-Type": "application/x-ndjson"])
    await feedServer.send("{\"id\": 3, \"title\": \"Loops\"}\n")
    await feedServer.end()
    _ = await reading.result
}

/// The titles of the feed's stories, by id.
@MainActor
func titles(_ feed: Resource) -> [String] {
    let stories = feed.latestData?.content as? [Int: Story] ?? [:]
    return stories.keys.sorted().compactMap { stories[$0]?.title }
}

/// Lets the main actor run until `condition` holds: the reading task hands each growth to it. Bounded.
@MainActor
func settle(_ condition: () -> Bool) async {
    for _ in 0..<10_000 where !condition() {
        await Task.yield()
    }
}

await tour()
