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
        Service(baseURL: $0, networking: provider)
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
}
