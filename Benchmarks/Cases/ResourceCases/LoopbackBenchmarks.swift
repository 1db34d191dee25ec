import Foundation
import Repose

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession for both sides of the comparison: Repose's provider wraps it, the direct case calls it.
@MainActor
enum Loopback {
    static let provider = URLSessionProvider()
    static let service: Service? = LoopbackServer.shared.baseURL.map {
        Service(baseURL: $0, options: .init(networking: provider))
    }
}

/// A GET through the session directly, waiting for the body.
func directGET(_ session: URLSession, _ url: URL) async -> Int {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        session.dataTask(with: URLRequest(url: url)) { data, _, _ in
            continuation.resume(returning: data?.count ?? 0)
        }.resume()
    }
}

/// The same, called and resumed on the main actor, as code on the main actor writes it: the request starts on the
/// caller's thread (the nonisolated one above runs on the global executor).
@MainActor
func directGETOnMainActor(_ session: URLSession, _ url: URL) async -> Int {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        session.dataTask(with: URLRequest(url: url)) { data, _, _ in
            continuation.resume(returning: data?.count ?? 0)
        }.resume()
    }
}

/// A GET through the session directly, as an app writes it by hand without `await`: the completion handler runs on
/// the session's queue, does `work` with the body there (parsing, say), and goes back to the main queue to call
/// `done`.
func directGET(
    _ session: URLSession, _ url: URL, work: @escaping @Sendable (Data) -> Int = { $0.count },
    then done: @escaping @MainActor (Int) -> Void
) {
    session.dataTask(with: URLRequest(url: url)) { data, _, _ in
        let result = work(data ?? Data())
        DispatchQueue.main.async { MainActor.assumeIsolated { done(result) } }
    }.resume()
}

/// Repose's time over the direct time for one pair of GETs, in thousandths: 1,000 is parity, 1,030 is 3 % slower.
let pairedRatio = CustomMetric(name: "Repose ÷ URLSession (‰)")
/// Repose's time minus the direct time for one pair of GETs, in nanoseconds (negative when Repose was faster).
let pairedDifference = CustomMetric(name: "Repose − URLSession (ns)")

/// How long starting the GET keeps the main thread, for each side of a callbacks pair: the time until the start call
/// returns. On Linux the hand-made call waits in `dataTask(with:)` and `resume()` for the session's network queue;
/// Repose hands that to the provider's queue (see `URLSessionProvider`), which shows here and costs a thread wake-up
/// in the pair's difference.
let startHeldRepose = CustomMetric(name: "Main thread held by the start, Repose (ns)")
let startHeldDirect = CustomMetric(name: "Main thread held by the start, URLSession (ns)")

/// How long a block sent from the main thread waits before the serial queue runs it.
let untilQueueRuns = CustomMetric(name: "Until the queue's block runs (ns)")
private let queueHopConfiguration = configuration(.one, metrics: [untilQueueRuns], seconds: 2)
private let queueHopQueue = DispatchQueue(label: "Repose.benchmarks.hop")

/// When a block was sent to the queue and when the queue ran it. `@unchecked Sendable`: `sent` is written on the main
/// actor before the block is sent, `ran` on the queue before it hops back, and both are read after that hop.
private final class HopTimes: @unchecked Sendable {
    var sent: ContinuousClock.Instant
    var ran: ContinuousClock.Instant

    init(_ instant: ContinuousClock.Instant) {
        sent = instant
        ran = instant
    }
}

/// Which side of a pair goes first; alternates so that neither side always follows the other.
@MainActor
var reposeFirst = false

func loopbackBenchmarks() {
    // Each sample is one GET over a kept-alive loopback connection, Repose's load against the same URLSession
    // called directly; the server sends the body as application/octet-stream, so Repose parses nothing.
    for (label, path) in [("1 KB", "/1k"), ("1 MB", "/1m")] {
        mainActorBenchmark("Loopback GET \(label)/Repose", configuration(.one, seconds: 2)) { measured in
            guard let resource = Loopback.service?.resource(path) else { return }
            await measured.runTask { await resource.loadAndWait() }
            blackHole((resource.latestData?.content as? Data)?.count)
        }
        mainActorBenchmark("Loopback GET \(label)/URLSession", configuration(.one, seconds: 2)) { measured in
            guard let url = Loopback.service?.resource(path).url else { return }
            let session = Loopback.provider.session
            await measured.runTask { blackHole(await directGET(session, url)) }
        }
    }
    // The budgets are smaller than the spread between separate samples of a python3-served GET, so these cases time
    // the two sides in pairs, back to back on the same connection and alternating which goes first, and record each
    // pair's ratio and difference: the medians cancel the slow drift that separate runs pick up.
    //
    // `paired`: each side awaits its GET in a task, as an app's `async` code does.
    for (label, path) in [("1 KB", "/1k"), ("1 MB", "/1m")] {
        pairedAwaitBenchmark("Loopback GET \(label)/paired", path: path) { resource in
            await resource.loadAndWait()
            blackHole((resource.latestData?.content as? Data)?.count)
        }
    }
    // `paired, main actor`: the same, but the direct side too starts its GET from the main actor and resumes there,
    // so both sides go from and to the same thread.
    pairedAwaitBenchmark("Loopback GET 1 KB/paired, main actor", path: "/1k", directOnMainActor: true) { resource in
        await resource.loadAndWait()
        blackHole((resource.latestData?.content as? Data)?.count)
    }
    // `paired, callbacks`: each side is called from the main thread and calls back there, as code an app runs from
    // its run loop: Repose's `load().onCompletion`, against the session's completion handler hopping to the main
    // queue by hand. For the JSON body, the direct side parses it with `JSONSerialization` on the session's queue
    // before it hops, as Repose's pipeline does.
    pairedCallbackBenchmark("Loopback GET 1 KB/paired, callbacks", path: "/1k")
    pairedCallbackBenchmark("Loopback GET 1 MB JSON/paired, callbacks", path: "/1m.json") { data in
        ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.count ?? -1
    }
    // What the provider's queue costs by itself, with no network: a block sent from the main thread to a serial
    // queue, as `URLSessionProvider.startTransfer` sends each start, and back to the main queue. The figure is the
    // round trip; `Until the queue's block runs` is the hop the callbacks pair pays on the way out.
    mainActorBenchmark("Queue hop from the main thread and back (harness only)", queueHopConfiguration) { measured in
        let queue = queueHopQueue
        let clock = ContinuousClock()
        let hop = HopTimes(clock.now)
        await measured.run { done in
            hop.sent = clock.now
            queue.async {
                hop.ran = clock.now
                DispatchQueue.main.async { MainActor.assumeIsolated { done() } }
            }
        }
        measured.record(untilQueueRuns, nanoseconds(hop.ran - hop.sent))
    }
    // The provider alone against the same comparison: what of the gap above is the delegate-based task (which
    // streams the body to a sink) rather than the resource layer.
    pairedAwaitBenchmark("Loopback GET 1 KB/provider paired", path: "/1k") { resource in
        let request = URLRequest(url: resource.url)
        let count = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            _ = Loopback.provider.startTransfer(request, into: CountingSink { continuation.resume(returning: $0) })
        }
        blackHole(count)
    }
}

/// Counts a body's bytes and hands the count over when the transfer ends. Safe (`@unchecked Sendable`): the
/// provider calls it one call at a time.
private final class CountingSink: ResponseSink, @unchecked Sendable {
    private var count = 0
    private let done: @Sendable (Int) -> Void

    init(done: @escaping @Sendable (Int) -> Void) {
        self.done = done
    }

    func receive(_ response: NetworkResponse) -> Bool { true }

    func receive(_ bytes: Data) -> Bool {
        count += bytes.count
        return true
    }

    func progress(_ sample: TransferProgress) {}

    func finish(_ error: (any Error)?, connection: ConnectionMetrics?, isFromCache: Bool) {
        done(count)
    }
}

private let pairedMetrics = [pairedRatio, pairedDifference]
private let callbackMetrics = pairedMetrics + [startHeldRepose, startHeldDirect]

/// Times `side` against a direct GET of the same URL in pairs, each awaited, alternating which goes first.
private func pairedAwaitBenchmark(
    _ name: String, path: String, directOnMainActor: Bool = false,
    side: @escaping @MainActor (Resource) async -> Void
) {
    mainActorBenchmark(name, configuration(.one, metrics: pairedMetrics, seconds: 10)) { measured in
        guard let resource = Loopback.service?.resource(path) else { return }
        let session = Loopback.provider.session
        let url = resource.url
        let clock = ContinuousClock()
        reposeFirst.toggle()
        let order = reposeFirst ? [true, false] : [false, true]
        var sideTime = Duration.zero
        var directTime = Duration.zero
        await measured.runTask {
            for isSide in order {
                let started = clock.now
                if isSide {
                    await side(resource)
                    sideTime = clock.now - started
                } else {
                    if directOnMainActor {
                        blackHole(await directGETOnMainActor(session, url))
                    } else {
                        blackHole(await directGET(session, url))
                    }
                    directTime = clock.now - started
                }
            }
        }
        recordPair(measured, side: sideTime, direct: directTime)
    }
}

/// Times Repose's `load()` against a direct GET of the same URL in pairs, both with callbacks on the main thread,
/// alternating which goes first. `work` is what the direct side does with the body on the session's queue.
private func pairedCallbackBenchmark(
    _ name: String, path: String, work: @escaping @Sendable (Data) -> Int = { $0.count }
) {
    mainActorBenchmark(name, configuration(.one, metrics: callbackMetrics, seconds: 10)) { measured in
        guard let resource = Loopback.service?.resource(path) else { return }
        let session = Loopback.provider.session
        let url = resource.url
        let clock = ContinuousClock()
        reposeFirst.toggle()
        let reposeGoesFirst = reposeFirst
        var sideTime = Duration.zero
        var directTime = Duration.zero
        var sideHeld = Duration.zero
        var directHeld = Duration.zero
        await measured.run { done in
            @MainActor func repose(then next: @escaping @MainActor () -> Void) {
                let started = clock.now
                resource.load().onCompletion { info in
                    sideTime = clock.now - started
                    blackHole(info)
                    next()
                }
                sideHeld = clock.now - started
            }
            @MainActor func direct(then next: @escaping @MainActor () -> Void) {
                let started = clock.now
                directGET(session, url, work: work) { result in
                    directTime = clock.now - started
                    blackHole(result)
                    next()
                }
                directHeld = clock.now - started
            }
            if reposeGoesFirst {
                repose { direct(then: done) }
            } else {
                direct { repose(then: done) }
            }
        }
        recordPair(measured, side: sideTime, direct: directTime)
        measured.record(startHeldRepose, nanoseconds(sideHeld))
        measured.record(startHeldDirect, nanoseconds(directHeld))
    }
}

@MainActor
private func recordPair(_ measured: Measured, side: Duration, direct: Duration) {
    let sideNanoseconds = nanoseconds(side)
    let directNanoseconds = max(nanoseconds(direct), 1)
    measured.record(pairedRatio, sideNanoseconds * 1_000 / directNanoseconds)
    measured.record(pairedDifference, sideNanoseconds - directNanoseconds)
}

func nanoseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
}
