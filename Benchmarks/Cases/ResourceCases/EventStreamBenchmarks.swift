import Foundation
import Repose
import ReposeTesting

// What a live feed costs (issue 32): events through one stream replacing the content of 1,000 observed resources,
// with the heap measured across 10,000 of them; and the stream's reading in MB/s beside a plain split of the same
// bytes into lines. The stub provider hands each piece of body over on a queue of its own, as a network does, and the
// time is one piece's trip: parsing on that queue, the hop to the main actor, delivery and each event's effect. The
// figures are in Docs/Performance.md.

let eventsPerSecond = CustomMetric(name: "Events per second")
let heapGrowthPer10kEvents = CustomMetric(name: "Heap growth over 10,000 events (bytes)")
let megabytesPerSecond = CustomMetric(name: "MB/s")

func eventStreamBenchmarks() {
    let resourceCount = isSmokeRun ? 10 : 1_000
    mainActorBenchmark(
        "Event stream to \(resourceCount) observed resources (per event)",
        configuration(.kilo, metrics: [eventsPerSecond, heapGrowthPer10kEvents])
    ) { measured in
        let fixture = LiveFeedFixture(resourceCount: resourceCount)
        await fixture.open()
        await fixture.send(count: 10_000)  // warm-up: every resource has streamed data and its entity's shape
        let heapBefore = allocatedBytes()
        await fixture.send(count: 10_000)
        measured.record(heapGrowthPer10kEvents, allocatedBytes() - heapBefore)
        let pieces = fixture.pieces(count: measured.iterations.count)
        let start = ContinuousClock.now
        await measured.runTask {
            for piece in pieces { await fixture.feed.send(piece) }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        measured.record(eventsPerSecond, Int(Double(measured.iterations.count) / max(seconds, 1e-9)))
        blackHole(fixture.tally.count)
    }

    // One MB of typical events, read by a stream with one observer of its events and no effects, in 16 KB pieces as
    // URLSession hands them over; then the same bytes split into lines with no event logic at all.
    let megabyte = eventBytes(size: 1_000_000)
    let pieces = stride(from: 0, to: megabyte.count, by: 16_384).map {
        megabyte[$0..<min($0 + 16_384, megabyte.count)]
    }
    mainActorBenchmark("Event stream reading 1 MB (per MB)", configuration(.one, metrics: [megabytesPerSecond])) {
        measured in
        let fixture = LiveFeedFixture(resourceCount: 0, effects: false)
        await fixture.open()
        let start = ContinuousClock.now
        await measured.runTask {
            for piece in pieces { await fixture.feed.send(Data(piece)) }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        measured.record(megabytesPerSecond, Int(1 / max(seconds, 1e-9)))
        blackHole(fixture.tally.count)
    }
    mainActorBenchmark(
        "Plain line split of 1 MB, baseline (per MB)", configuration(.one, metrics: [megabytesPerSecond])
    ) {
        measured in
        var lines = 0
        let start = ContinuousClock.now
        await measured.run {
            for piece in pieces {
                lines &+= Data(piece).split(separator: 0x0A, omittingEmptySubsequences: false).count
            }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        measured.record(megabytesPerSecond, Int(1 / max(seconds, 1e-9)))
        blackHole(lines)
    }
}

/// `size` bytes of events as a feed sends them: a type, an id, and a path as data.
private func eventBytes(size: Int) -> Data {
    var text = ""
    var index = 0
    while text.utf8.count < size {
        text += "event: star\nid: \(index)\ndata: /items/\(index % 1_000)\n\n"
        index += 1
    }
    return Data(text.utf8)
}

/// A service whose stream at `/events` replaces the content of the resource each event names (unless `effects` is
/// false), among `resourceCount` resources with one observer each.
@MainActor
private final class LiveFeedFixture {
    let network = StubNetworkingProvider()
    let feed: StubEventStream
    let service: Service
    let stream: EventStream
    let resources: [Resource]
    let tally = Tally()
    private let owner = Owner()
    private var next = 0

    init(resourceCount: Int, effects: Bool = true) {
        feed = network.stubEventStream(baseURL + "/events")
        service = Service(
            baseURL: baseURL, options: .init(networking: network, reconnected: nil, becameActive: nil))
        service.cachedResourceCountLimit = resourceCount * 2 + 10
        let service = service
        resources = paths(resourceCount).map { service.resource($0) }
        for resource in resources {
            resource.addObserver(owner: owner) { [tally] _, _ in tally.count &+= 1 }
        }
        stream = service.eventStream("/events")
        if effects { stream.on("star", .replaceContent(contentType: "text/plain")) }
        stream.events.observe(owner: owner) { [tally] _ in tally.count &+= 1 }
    }

    /// Opens the stream's connection.
    func open() async {
        await feed.open()
    }

    /// `count` events in pieces of 100, each naming the next resource in turn.
    func pieces(count: Int) -> [Data] {
        var pieces: [Data] = []
        var text = ""
        for index in 0..<count {
            text += "event: star\nid: \(next)\ndata: /items/\(next % max(resources.count, 1))\n\n"
            next += 1
            if index % 100 == 99 {
                pieces.append(Data(text.utf8))
                text = ""
            }
        }
        if !text.isEmpty { pieces.append(Data(text.utf8)) }
        return pieces
    }

    func send(count: Int) async {
        for piece in pieces(count: count) { await feed.send(piece) }
    }
}
