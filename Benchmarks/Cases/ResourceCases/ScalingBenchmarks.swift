import Foundation
import Repose

/// The same operations with 1,000, 10,000 and 100,000 live resources: none of them may grow with the count.
///
/// Each case works on the same 1,000 resources at every scale, so that the figures compare the algorithms rather
/// than how much of the service's tables fits in the processor's cache.
func scalingBenchmarks() {
    // Creating and retaining resources, each with data and one observer, as the memory case does, from a new
    // service: the time per resource must not grow with the count.
    for count in isSmokeRun ? [1_000] : [1_000, 10_000, 100_000, 1_000_000] {
        let metrics = [nanosecondsPerResource, bytesPerResource]
        mainActorBenchmark("Scaling create and retain/\(count)", configuration(.one, metrics: metrics, seconds: 3)) {
            measured in
            let names = paths(count)
            let owner = Owner()
            let tally = Tally()
            var resources: [Resource] = []
            resources.reserveCapacity(count)
            // The service outlives the measurement: an app that drops it lets go of every resource, which is not
            // what is measured here.
            let service = stubbedService()
            let heapBefore = allocatedBytes()
            let clock = ContinuousClock()
            var elapsed = Duration.zero
            await measured.run {
                let started = clock.now
                for path in names {
                    let resource = service.resource(path)
                    resource.overrideLocalContent(with: "data")
                    resource.addObserver(owner: owner) { _, _ in tally.count &+= 1 }
                    resources.append(resource)
                }
                elapsed = clock.now - started
            }
            measured.record(nanosecondsPerResource, nanoseconds(elapsed) / count)
            measured.record(bytesPerResource, (allocatedBytes() - heapBefore) / count)
            blackHole(resources)
            blackHole(service)
        }
    }
    let counts = isSmokeRun ? [1_000] : [1_000, 10_000, 100_000]
    for count in counts {
        mainActorBenchmark("Scaling lookup known path/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count)
            let known = paths(1_000)
            await measured.run {
                for index in measured.iterations { blackHole(fixture.service.resource(known[index % known.count])) }
            }
        }
        mainActorBenchmark("Scaling loadIfNeeded fresh/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count)
            await measured.run {
                for index in measured.iterations { blackHole(fixture.resources[index % 1_000].loadIfNeeded()) }
            }
        }
        mainActorBenchmark("Scaling configuration resolution/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count)
            await measured.run {
                for index in measured.iterations {
                    fixture.service.invalidateConfiguration()
                    blackHole(fixture.resources[index % 1_000].configuration.expirationTime)
                }
            }
        }
        mainActorBenchmark("Scaling notify one observer/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count)
            let entity = Entity<Any>(content: "data", contentType: "text/plain")
            await measured.run {
                for index in measured.iterations { fixture.resources[index % 1_000].overrideLocalData(with: entity) }
            }
        }
        // New paths while the app holds `count` observed resources, far over the count limit of 100.
        mainActorBenchmark("Scaling lookup new path, observed held/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count)
            let newPaths = paths(measured.iterations.count, prefix: "new-\(UInt32.random(in: 0...UInt32.max))")
            await measured.run {
                for path in newPaths { blackHole(fixture.service.resource(path)) }
            }
        }
        // The same while the app holds `count` resources that nothing observes.
        mainActorBenchmark("Scaling lookup new path, unobserved held/\(count)", configuration(.kilo)) { measured in
            let fixture = ScalingFixture.holding(count, observed: false)
            let newPaths = paths(measured.iterations.count, prefix: "new-\(UInt32.random(in: 0...UInt32.max))")
            await measured.run {
                for path in newPaths { blackHole(fixture.service.resource(path)) }
            }
        }
    }
}
