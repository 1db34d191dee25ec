import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Wiping resources by pattern", .checksLifetimes)
struct WipeResourcesTests {
    let harness = Harness()
    var service: Service { harness.service }
    let resources: [Resource]

    init() {
        let service = harness.service
        resources = ["/a/b", "/a/c", "/a/b/c", "/x"].map { service.resource($0) }
        for resource in resources {
            resource.overrideLocalContent(with: "data")
        }
    }

    private var stillHoldData: [Bool] { resources.map { $0.latestData != nil } }

    @Test("wipeResources(matching:) wipes the resources a glob matches, and only those")
    func glob() {
        service.wipeResources(matching: "/a/*")
        #expect(stillHoldData == [false, false, true, true])
    }

    @Test("wipeResources(matching:) takes a regular expression or a resource")
    func regexAndResource() throws {
        service.wipeResources(matching: try NSRegularExpression(pattern: "/c$"))
        #expect(stillHoldData == [true, false, false, true])
        service.wipeResources(matching: resources[3])
        #expect(stillHoldData == [true, false, false, false])
    }

    @Test("wipeResources with a predicate, and with none, wipes every matching resource")
    func predicates() {
        service.wipeResources(withURLsMatching: { $0.path.hasSuffix("/b") })
        #expect(stillHoldData == [false, true, true, true])
        service.wipeResources { $0 === resources[1] }
        #expect(stillHoldData == [false, false, true, true])
        service.wipeResources()
        #expect(stillHoldData == [false, false, false, false])
    }

    @Test("wiping cancels the requests of the resources it wipes and tells their observers")
    func wipeCancelsAndNotifies() async {
        let observer = RecordingObserver()
        resources[0].addObserver(observer)
        let load = resources[0].load()
        let other = resources[3].load()
        service.wipeResources(matching: "/a/**")
        #expect(load.state == .completed)
        #expect(other.state == .inProgress)
        #expect(observer.events.contains("newData(wipe)"))
    }
}
