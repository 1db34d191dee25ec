import Foundation
import Repose

// The resource layer's hot paths, each with its allocation count. Figures are per inner iteration (marked * in the
// ordo-one runner's output) unless a name says otherwise. Every body runs on the main actor, as an app's code does.

func lookupBenchmarks() {
    mainActorBenchmark("Lookup new path", configuration(.kilo)) { measured in
        let service = stubbedService()
        let newPaths = paths(measured.iterations.count)
        await measured.run {
            for path in newPaths { blackHole(service.resource(path)) }
        }
    }
    mainActorBenchmark("Lookup known path", configuration(.kilo)) { measured in
        let service = stubbedService()
        let path = "/users/42"
        // Twice: a path's canonical key is remembered on its second lookup (the first only builds its URL).
        _ = service.resource(path)
        let resource = service.resource(path)
        await measured.run {
            for _ in measured.iterations { blackHole(service.resource(path)) }
        }
        blackHole(resource)
    }
}

func loadIfNeededBenchmarks() {
    mainActorBenchmark("loadIfNeeded on fresh data", configuration(.kilo)) { measured in
        let service = stubbedService()
        let resource = service.resource("/users/42")
        resource.overrideLocalContent(with: "data")
        resource.loadIfNeeded()  // the first check builds the configuration; measure the steady state
        await measured.run {
            for _ in measured.iterations { blackHole(resource.loadIfNeeded()) }
        }
    }
}

func observerBenchmarks() {
    mainActorBenchmark("Observer add+remove", configuration(.kilo)) { measured in
        let service = stubbedService()
        let resource = service.resource("/users/42")
        let owner = Owner()
        let tally = Tally()
        await measured.run {
            for _ in measured.iterations {
                resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 }
                resource.removeObservers(ownedBy: owner)
            }
        }
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
            await measured.run {
                for _ in 0..<(measured.iterations.count / observers) { resource.overrideLocalData(with: entity) }
            }
            blackHole(tally.count)
            blackHole(owners.count)
        }
    }
    // A load's progress reaching a resource observed by 1,000 closures, which take no progress, alone and beside one
    // observer object that does; the figure is per report (each a new value, so each reaches the observers).
    for (name, withObject) in [
        ("Progress report, 1000 closure observers (per report)", false),
        ("Progress report, 1000 closure observers and 1 object (per report)", true),
    ] {
        mainActorBenchmark(name, configuration(.kilo)) { measured in
            let resource = stubbedService().resource("/users/42")
            let owner = Owner()
            let tally = Tally()
            for _ in 0..<observers { resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 } }
            let objectObserver = ProgressTally()
            if withObject { resource.addObserver(objectObserver, owner: owner) }
            let delegate = ProgressOnlyDelegate()
            resource.load(using: resource.prepareRequest(using: delegate).start())
            guard let handler = delegate.handler else { return }
            let count = Double(measured.iterations.count + 1)
            await measured.run {
                for index in measured.iterations { handler.broadcastProgress(Double(index + 1) / count) }
            }
            handler.broadcastResponse(ResponseInfo(response: .failure(RequestError(userMessage: "done", cause: nil))))
            blackHole(objectObserver.count + tally.count)
        }
    }
    // What an app would write by hand for the fan-out cases above: a list of closures, each behind a check of its own weak
    // owner. Loading a weak reference and releasing it again is two atomic operations on the owner's side table.
    mainActorBenchmark("Fan-out 1000 owners baseline (weak check + call)", configuration(.mega)) { measured in
        let owners = (0..<observers).map { _ in Owner() }
        let tally = Tally()
        let list = owners.map { owner in WeakOwnedClosure(owner: owner) { tally.count &+= 1 } }
        await measured.run {
            for _ in 0..<(measured.iterations.count / observers) {
                for item in list where item.owner != nil { item.closure() }
            }
        }
        blackHole(tally.count)
        blackHole(owners.count)
    }
}

/// A request that stays in flight until the benchmark is done with it, and reports the progress it is told to.
@MainActor
final class ProgressOnlyDelegate: RequestDelegate {
    var handler: RequestCompletionHandler?

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        handler = completionHandler
    }

    func cancelUnderlyingOperation() { handler = nil }
    func repeated() -> any RequestDelegate { ProgressOnlyDelegate() }
    var requestDescription: String { "progress only" }
}

/// An observer object that counts progress reports.
@MainActor
final class ProgressTally: ResourceObserver {
    var count = 0
    func resourceChanged(_ resource: Resource, event: ResourceEvent) {}
    func resourceRequestProgress(for resource: Resource, progress: Double) { count &+= 1 }
}

/// The hops left in the main-queue chain; only touched on the main actor.
@MainActor
final class HopCounter {
    var value: Int
    init(_ value: Int) { self.value = value }
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
        await measured.runTask { await resource.loadAndWait() }
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
        await measured.run { done in loadInSequence(resources, then: done) }
    }
    // The same chain on one resource, as an app's refresh or polling reloads it: its configuration is built once,
    // before the measurement, as a resource's first load builds it once in an app.
    mainActorBenchmark("Stub load round trip chained, same resource (per load)", configuration(.kilo, seconds: 3)) {
        measured in
        let resource = stubbedService().resource("/users/42")
        await resource.loadAndWait()
        let chain = Array(repeating: resource, count: measured.iterations.count)
        await measured.run { done in loadInSequence(chain, then: done) }
    }
    // What the sequential case's await costs on its own: a continuation resumed from a main-queue block, no load.
    mainActorBenchmark("Await a main-queue callback (harness only)", configuration(.one)) { measured in
        await measured.runTask {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async { continuation.resume() }
            }
        }
    }
    // What the chained cases' one trip through the main queue costs on its own: blocks on the main queue, each
    // enqueued by the one before, as the stub provider enqueues each response. On the process's main thread that is
    // a wake-up of the run loop per block.
    mainActorBenchmark("Main-queue hop chained (harness only, per hop)", configuration(.kilo)) { measured in
        let count = measured.iterations.count
        await measured.run { done in
            let remaining = HopCounter(count)
            @Sendable func hop() {
                DispatchQueue.main.async {
                    // Provably on the main thread: a block on the main queue.
                    MainActor.assumeIsolated {
                        remaining.value -= 1
                        if remaining.value == 0 { done() } else { hop() }
                    }
                }
            }
            hop()
        }
    }
    // 1,000 loads started at once; the figure is per batch.
    mainActorBenchmark("Stub load 1000 at once (per batch)", configuration(.one)) { measured in
        let service = stubbedService()
        service.cachedResourceCountLimit = 2_000
        let resources = paths(1_000).map { service.resource($0) }
        await measured.run { done in loadAll(resources, then: done) }
    }
}

func memoryBenchmarks() {
    // Bytes per resource, each with data and one observer, at 100,000 resources: live heap bytes (glibc's
    // `mallinfo2`, which counts what is allocated and not freed, whatever the allocator reuses) and resident memory.
    let count = isSmokeRun ? 1_000 : 100_000
    let metrics = [bytesPerResource, residentBytesPerResource]
    mainActorBenchmark("Memory per resource with data and observer", configuration(.one, metrics: metrics)) {
        measured in
        let names = paths(count)
        let owner = Owner()
        let tally = Tally()
        let heapBefore = allocatedBytes()
        let residentBefore = residentBytes()
        var resources: [Resource] = []
        resources.reserveCapacity(count)
        await measured.run {
            let service = stubbedService()
            for path in names {
                let resource = service.resource(path)
                resource.overrideLocalContent(with: "data")
                resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 }
                resources.append(resource)
            }
        }
        measured.record(bytesPerResource, (allocatedBytes() - heapBefore) / count)
        measured.record(residentBytesPerResource, (residentBytes() - residentBefore) / count)
        blackHole(resources)
    }
}
