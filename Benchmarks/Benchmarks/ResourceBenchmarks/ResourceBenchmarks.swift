import Benchmark
import Foundation
import Repose

// The resource layer's hot paths, each with its allocation count. Figures are per inner iteration (marked * in the
// output) unless a name says otherwise. Every body runs on the main actor, as an app's code does.

let benchmarks: @Sendable () -> Void = {
    lookupBenchmarks()
    loadIfNeededBenchmarks()
    observerBenchmarks()
    roundTripBenchmarks()
    memoryBenchmarks()
    largeBodyBenchmarks()
    scalingBenchmarks()
    loopbackBenchmarks()
    cacheBenchmarks()
    listBenchmarks()
    retryBenchmarks()
    pollingBenchmarks()
    mutationBenchmarks()
    Benchmark.teardown = {
        LoopbackServer.shared.stop()
        await removeEvictionFolders()
    }
}

func lookupBenchmarks() {
    mainActorBenchmark("Lookup new path", configuration(.kilo)) { measured in
        let service = stubbedService()
        let newPaths = paths(measured.iterations.count)
        measured.start()
        for path in newPaths { blackHole(service.resource(path)) }
        measured.stop()
    }
    mainActorBenchmark("Lookup known path", configuration(.kilo)) { measured in
        let service = stubbedService()
        let path = "/users/42"
        let resource = service.resource(path)
        measured.start()
        for _ in measured.iterations { blackHole(service.resource(path)) }
        measured.stop()
        blackHole(resource)
    }
}

func loadIfNeededBenchmarks() {
    mainActorBenchmark("loadIfNeeded on fresh data", configuration(.kilo)) { measured in
        let service = stubbedService()
        let resource = service.resource("/users/42")
        resource.overrideLocalContent(with: "data")
        resource.loadIfNeeded()  // the first check builds the configuration; measure the steady state
        measured.start()
        for _ in measured.iterations { blackHole(resource.loadIfNeeded()) }
        measured.stop()
    }
}

func observerBenchmarks() {
    mainActorBenchmark("Observer add+remove", configuration(.kilo)) { measured in
        let service = stubbedService()
        let resource = service.resource("/users/42")
        let owner = Owner()
        let tally = Tally()
        measured.start()
        for _ in measured.iterations {
            resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 }
            resource.removeObservers(ownedBy: owner)
        }
        measured.stop()
        blackHole(tally.count)
    }
    // Each local override notifies 1,000 observers; the figure is per delivery. With one owner for all of them, as
    // when a view model registers its closures, and with one owner each, as when 1,000 views each observe through
    // their own view model: then every delivery checks a different owner.
    let observers = 1_000
    for (name, ownerCount) in [
        ("Fan-out 1000 observers per delivery", 1), ("Fan-out 1000 observers 1000 owners per delivery", observers),
    ] {
        mainActorBenchmark(name, configuration(.mega)) { measured in
            let service = stubbedService()
            let resource = service.resource("/users/42")
            let owners = (0..<ownerCount).map { _ in Owner() }
            let tally = Tally()
            for index in 0..<observers {
                resource.addObserver(owner: owners[index % ownerCount]) { _, _ in tally.count &+= 1 }
            }
            let entity = Entity<Any>(content: "data", contentType: "text/plain")
            measured.start()
            for _ in 0..<(measured.iterations.count / observers) { resource.overrideLocalData(with: entity) }
            measured.stop()
            blackHole(tally.count)
            blackHole(owners.count)
        }
    }
    // What an app would write by hand for the case above: a list of closures, each behind a check of its own weak
    // owner. Loading a weak reference and releasing it again is two atomic operations on the owner's side table.
    mainActorBenchmark("Fan-out 1000 owners baseline (weak check + call)", configuration(.mega)) { measured in
        let owners = (0..<observers).map { _ in Owner() }
        let tally = Tally()
        let list = owners.map { owner in WeakOwnedClosure(owner: owner) { tally.count &+= 1 } }
        measured.start()
        for _ in 0..<(measured.iterations.count / observers) {
            for item in list where item.owner != nil { item.closure() }
        }
        measured.stop()
        blackHole(tally.count)
        blackHole(owners.count)
    }
}

/// A closure kept until its owner is gone: the baseline's observer.
final class WeakOwnedClosure {
    weak var owner: AnyObject?
    let closure: @MainActor () -> Void

    init(owner: AnyObject, closure: @escaping @MainActor () -> Void) {
        self.owner = owner
        self.closure = closure
    }
}

func roundTripBenchmarks() {
    mainActorBenchmark("Stub load round trip sequential", configuration(.one)) { measured in
        let service = stubbedService()
        let resource = service.resource("/users/42")
        measured.start()
        await resource.loadAndWait()
        measured.stop()
    }
    // The same round trip without the harness's await in each sample: loads run one after another (each starts in
    // the previous one's completion hook, on the main actor), each the first load of a fresh service, and one await
    // covers them all. Awaiting a continuation on the main actor resumes on the global executor and hops back, two
    // thread wake-ups that cost more than the load itself on Linux; the case above pays them on every load.
    mainActorBenchmark("Stub load round trip chained (per load)", configuration(.kilo, seconds: 3)) { measured in
        let network = stubProvider()
        let resources = measured.iterations.map { _ in
            Service(baseURL: baseURL, options: .init(networking: network)).resource("/users/42")
        }
        measured.start()
        await loadInSequenceAndWait(resources)
        measured.stop()
    }
    // The same chain on one resource, as an app's refresh or polling reloads it: its configuration is built once,
    // before the measurement, as a resource's first load builds it once in an app.
    mainActorBenchmark("Stub load round trip chained, same resource (per load)", configuration(.kilo, seconds: 3)) {
        measured in
        let resource = stubbedService().resource("/users/42")
        await resource.loadAndWait()
        measured.start()
        await loadInSequenceAndWait(Array(repeating: resource, count: measured.iterations.count))
        measured.stop()
    }
    // What the sequential case's await costs on its own: a continuation resumed from a main-queue block, no load.
    mainActorBenchmark("Await a main-queue callback (harness only)", configuration(.one)) { measured in
        measured.start()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
        measured.stop()
    }
    // 1,000 loads started at once; the figure is per batch.
    mainActorBenchmark("Stub load 1000 at once (per batch)", configuration(.one)) { measured in
        let service = stubbedService()
        service.cachedResourceCountLimit = 2_000
        let resources = paths(1_000).map { service.resource($0) }
        measured.start()
        await loadAllAndWait(resources)
        measured.stop()
    }
}

func memoryBenchmarks() {
    // Bytes allocated per resource, each with data and one observer, at 100,000 resources.
    let count = isSmokeRun ? 1_000 : 100_000
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, bytesPerResource]
    mainActorBenchmark("Memory per resource with data and observer", configuration(.one, metrics: metrics)) {
        measured in
        let names = paths(count)
        let owner = Owner()
        let tally = Tally()
        let before = residentBytes()
        measured.start()
        let service = stubbedService()
        var resources: [Resource] = []
        resources.reserveCapacity(count)
        for path in names {
            let resource = service.resource(path)
            resource.overrideLocalContent(with: "data")
            resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 }
            resources.append(resource)
        }
        measured.stop()
        measured.record(bytesPerResource, (residentBytes() - before) / count)
        blackHole(resources)
    }
}
