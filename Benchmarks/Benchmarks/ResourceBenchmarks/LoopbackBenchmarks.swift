import Benchmark
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

/// Repose's time over the direct time for one pair of GETs, in thousandths: 1,000 is parity, 1,030 is 3 % slower.
let pairedRatio = BenchmarkMetric.custom(
    "Repose ÷ URLSession (‰)", polarity: .prefersSmaller, useScalingFactor: false)

/// Which side of a pair goes first; alternates so that neither side always follows the other.
@MainActor
private var reposeFirst = false

func loopbackBenchmarks() {
    // Each sample is one GET over a kept-alive loopback connection, Repose's load against the same URLSession
    // called directly; the server sends the body as application/octet-stream, so Repose parses nothing.
    for (label, path) in [("1 KB", "/1k"), ("1 MB", "/1m")] {
        mainActorBenchmark("Loopback GET \(label)/Repose", configuration(.one, seconds: 2)) { measured in
            guard let resource = Loopback.service?.resource(path) else { return }
            measured.start()
            await resource.loadAndWait()
            measured.stop()
            blackHole((resource.latestData?.content as? Data)?.count)
        }
        mainActorBenchmark("Loopback GET \(label)/URLSession", configuration(.one, seconds: 2)) { measured in
            guard let url = Loopback.service?.resource(path).url else { return }
            let session = Loopback.provider.session
            measured.start()
            let count = await directGET(session, url)
            measured.stop()
            blackHole(count)
        }
    }
    // The budgets (5 % and 3 %) are smaller than the spread between separate samples of a python3-served GET, so
    // these cases time the two sides in pairs, back to back on the same connection and alternating which goes
    // first, and record each pair's ratio: the median ratio cancels the slow drift that separate runs pick up.
    for (label, path) in [("1 KB", "/1k"), ("1 MB", "/1m")] {
        pairedBenchmark("Loopback GET \(label)/paired", path: path) { resource in
            await resource.loadAndWait()
            blackHole((resource.latestData?.content as? Data)?.count)
        }
    }
    // The provider alone against the same comparison: what of the gap above is the delegate-based task (which
    // reports progress) rather than the resource layer.
    pairedBenchmark("Loopback GET 1 KB/provider paired", path: "/1k") { resource in
        let request = URLRequest(url: resource.url)
        let count = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            _ = Loopback.provider.startRequest(
                request, progress: { _ in },
                completion: { continuation.resume(returning: (try? $0.get())?.body.count ?? 0) })
        }
        blackHole(count)
    }
}

/// Times `side` against a direct GET of the same URL in pairs, alternating which goes first, and records the ratio.
private func pairedBenchmark(_ name: String, path: String, side: @escaping @MainActor (Resource) async -> Void) {
    let metrics: [BenchmarkMetric] = [.wallClock, pairedRatio]
    mainActorBenchmark(name, configuration(.one, metrics: metrics, seconds: 10)) { measured in
        guard let resource = Loopback.service?.resource(path) else { return }
        let session = Loopback.provider.session
        let url = resource.url
        let clock = ContinuousClock()
        reposeFirst.toggle()
        var sideTime = Duration.zero
        var directTime = Duration.zero
        measured.start()
        for isSide in reposeFirst ? [true, false] : [false, true] {
            let started = clock.now
            if isSide {
                await side(resource)
                sideTime = clock.now - started
            } else {
                blackHole(await directGET(session, url))
                directTime = clock.now - started
            }
        }
        measured.stop()
        let measuredSide = nanoseconds(sideTime)
        let direct = max(nanoseconds(directTime), 1)
        measured.record(pairedRatio, measuredSide * 1_000 / direct)
    }
}

func nanoseconds(_ duration: Duration) -> Int {
    Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
}
