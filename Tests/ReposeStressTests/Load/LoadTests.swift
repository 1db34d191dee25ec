import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Load: many resources, many calls, many observers", .checksLifetimes)
struct LoadTests {
    let harness = Harness()

    @Test("A20 10,000 loadIfNeeded() calls in one main-actor turn start exactly one request per resource")
    func loadIfNeededStorm() async {
        let resources = (0..<100).map { harness.service.resource("/items/\($0)") }
        var firstRequests: [ObjectIdentifier: Request] = [:]
        for round in 0..<100 {
            for resource in resources {
                let request = resource.loadIfNeeded()
                if round == 0 {
                    firstRequests[ObjectIdentifier(resource)] = request
                } else if request !== firstRequests[ObjectIdentifier(resource)] {
                    Issue.record("call \(round) on \(resource.url.path) did not return the load in flight")
                }
            }
        }
        #expect(harness.network.sent.count == resources.count)
        #expect(Set(harness.network.sent.compactMap { URL(string: $0.url)?.path }).count == resources.count)
        await harness.network.respond(toOldest: resources.count, text: "ok")
        for request in firstRequests.values { _ = await request.responseInfo }
        #expect(resources.allSatisfy { $0.text == "ok" && !$0.isLoading })
    }

    @Test("B9 B16 100 observers on each of 20 resources each receive exactly the expected events, once")
    func manyObservers() async {
        let resources = (0..<20).map { harness.service.resource("/watched/\($0)") }
        let observers = resources.map { resource in
            (0..<100).map { _ in
                let observer = RecordingObserver()
                resource.addObserver(observer)
                return observer
            }
        }
        let loads = resources.map { $0.load() }
        await harness.network.respond(toOldest: resources.count, text: "seen")
        for load in loads { _ = await load.responseInfo }
        let failing = resources.indices.filter { index in
            !observers[index].allSatisfy { $0.events == ["observerAdded", "requested", "newData(network)"] }
        }
        #expect(failing.isEmpty, "resources whose observers heard something else: \(failing)")
        withExtendedLifetime(observers) {}
    }

    @Test("A4 B9 100,000 loads keep memory flat: no request outlives its load, resident memory stays level")
    func hundredThousandLoads() async {
        let network = InstantNetwork()
        let service = Service(
            baseURL: "https://zingle.frotz/v1", options: .init(networking: network, scheduler: harness.scheduler))
        LifetimeCheck.track(service)
        let resource = service.resource("/counter")
        resource.addObserver(owner: network) { _, _ in }
        var sampled: [WeakRequest] = []
        // Under AddressSanitizer the memory bound is not checked (its allocator keeps freed memory in quarantine), and
        // that no request outlives its load shows in a tenth of the loads: at full count this one test took 100 s,
        // the longest of that CI step.
        let share = Self.isAddressSanitized ? 10 : 1
        for _ in 0..<10_000 / share { _ = await resource.load().responseInfo }
        let warmedUp = Self.residentBytes()
        for index in 0..<90_000 / share {
            let request = resource.load()
            if index % (1_000 / share) == 0 { sampled.append(WeakRequest(request)) }
            _ = await request.responseInfo
        }
        let grown = Self.residentBytes() - warmedUp
        #expect(resource.text == "tick")
        #expect(resource.allRequests.isEmpty && resource.loadRequests.isEmpty)
        #expect(sampled.allSatisfy { $0.request == nil }, "a completed load's request is still alive")
        // Resident memory moves in pages and with the allocator's caches; a per-load leak of the size of a request
        // and its closures (hundreds of bytes) would add tens of megabytes over 90,000 loads.
        if !Self.isAddressSanitized {
            #expect(grown < 8 * 1024 * 1024, "resident memory grew by \(grown) bytes over 90,000 loads")
        }
    }

    private struct WeakRequest {
        weak var request: Request?
        init(_ request: Request) { self.request = request }
    }

    private static var isAddressSanitized: Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
    }

    private static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Answers every request at once, from another thread, with the same small text, and records nothing, so that the
/// only memory a run of loads keeps is what Repose keeps.
final class InstantNetwork: NetworkingProvider, Sendable {
    private struct Task: NetworkingTask {
        func cancel() {}
    }

    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        DispatchQueue.global().async {
            let headers = ["Content-Type": "text/plain"]
            sink.deliver(.success(NetworkResponse(statusCode: 200, headers: headers, body: Data("tick".utf8))))
        }
        return Task()
    }
}
