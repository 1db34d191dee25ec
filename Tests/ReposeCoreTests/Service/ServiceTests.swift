import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Service: resources by URL and their lifetimes", .checksLifetimes)
struct ServiceTests {
    let harness = Harness()
    var service: Service { harness.service }

    final class Owner {}

    @Test("D12 the same URL gives the same Resource however it was reached")
    func identity() {
        let reached = service.resource("/foo").child("oogle").child("baz").relative("../bar")
        #expect(reached === service.resource("/foo/bar"))
        #expect(service.resource("foo/bar") === service.resource(absoluteURL: "https://zingle.frotz/v1/foo/bar"))
    }

    @Test("C10 optionalRelative(nil) is nil and optionalRelative(x) is relative(x)")
    func optionalRelative() {
        let resource = service.resource("/a/b")
        #expect(resource.optionalRelative(nil) == nil)
        #expect(resource.optionalRelative("../c") === resource.relative("../c"))
    }

    @Test("D4 without a base URL, paths give resources whose loads fail at once; absolute URLs still work")
    func noBaseURL() throws {
        let unbased = Harness(baseURL: nil)
        #expect(unbased.service.baseURL == nil)
        let load = unbased.service.resource("foo").load()
        #expect(load.state == .completed)
        let error = try #require(load.completedResponse?.response.error)
        #expect(error.cause is RequestError.Cause.InvalidURL)
        #expect(unbased.network.sent.isEmpty)

        unbased.service.resource(absoluteURL: "https://example.com/x").load()
        #expect(unbased.network.sent.map { $0.url } == ["https://example.com/x"])
    }

    @Test("D4 an unparseable base URL behaves like none", arguments: ["not a url", "http://[bad", ""])
    func unparseableBaseURL(base: String) {
        let broken = Harness(baseURL: base)
        #expect(broken.service.baseURL == nil)
        #expect(broken.service.resource("foo").load().state == .completed)
    }

    @Test("D11 nil or unparseable absolute URLs give a resource whose requests fail with InvalidURL")
    func invalidAbsoluteURLs() {
        for resource in [service.resource(absoluteURL: nil as String?), service.resource(absoluteURL: "http://[bad")] {
            let request = resource.request(.post)
            #expect(request.state == .completed)
            #expect(request.completedResponse?.response.error?.cause is RequestError.Cause.InvalidURL)
            #expect(resource.load().completedResponse?.response.error?.userMessage.isEmpty == false)
        }
        #expect(harness.network.sent.isEmpty)
    }

    @Test("D11 resource(absoluteURL: nil) needs no type annotation and gives the resource of the invalid URL")
    func nilAbsoluteURL() {
        let resource = service.resource(absoluteURL: nil)
        #expect(resource === service.resource(absoluteURL: nil as String?))
        #expect(resource.load().completedResponse?.response.error?.cause is RequestError.Cause.InvalidURL)
        #expect(harness.network.sent.isEmpty)
    }

    @Test("D3 D4 D11 Service(baseURL: nil) and resource(baseURL: nil, path:) need no type annotation")
    func nilBaseURLs() {
        let unbased = Service(baseURL: nil, options: .init(networking: harness.network))
        #expect(unbased.baseURL == nil)
        let resource = service.resource(baseURL: nil, path: "/users")
        #expect(resource === service.resource(baseURL: nil as String?, path: "/users"))
        #expect(resource.load().completedResponse?.response.error?.cause is RequestError.Cause.InvalidURL)
        #expect(harness.network.sent.isEmpty)
    }

    @Test("D13 flushUnusedResources releases unused resources; observed ones keep their identity")
    func flushKeepsObserved() {
        let owner = Owner()
        let observedURL = service.resource("/observed").url
        service.resource("/observed").addObserver(owner: owner) { _, _ in }
        weak let unused = service.resource("/unused")
        service.flushUnusedResources()
        #expect(unused == nil)
        #expect(service.resource("/observed").url == observedURL)
        weak let observed = service.resource("/observed")
        service.flushUnusedResources()
        #expect(observed != nil)
    }

    @Test("D13 a resource the app still holds keeps its identity after a flush")
    func heldResourceKeepsIdentity() {
        let held = service.resource("/held")
        service.flushUnusedResources()
        #expect(service.resource("/held") === held)
    }

    @Test("D13 past cachedResourceCountLimit, unused resources are released")
    func countLimit() {
        service.cachedResourceCountLimit = 10
        weak let first = service.resource("/r0")
        for index in 1...20 {
            _ = service.resource("/r\(index)")
        }
        #expect(first == nil)
    }

    @Test("D13 a request in flight keeps its resource through a flush")
    func inFlightKeepsResource() {
        weak let loading = service.resource("/loading")
        loading?.load()
        service.flushUnusedResources()
        #expect(loading != nil)
    }

    @Test("B20 an observed resource stays alive after the caller drops it, even after a flush")
    func observedStaysAlive() {
        let owner = Owner()
        weak var resource: Resource?
        do {
            let strong = service.resource("/kept")
            strong.addObserver(owner: owner) { _, _ in }
            resource = strong
        }
        service.flushUnusedResources()
        #expect(resource != nil)
    }

    @Test("B21 once its last observer is gone, the resource is released on the next flush")
    func releasedAfterLastObserver() {
        weak var resource: Resource?
        var owner: Owner? = Owner()
        do {
            let strong = service.resource("/released")
            strong.addObserver(owner: owner!) { _, _ in }
            resource = strong
        }
        service.flushUnusedResources()
        #expect(resource != nil)
        owner = nil
        service.flushUnusedResources()
        #expect(resource == nil)

        let observer = RecordingObserver()
        weak var second: Resource?
        do {
            let strong = service.resource("/released-2")
            strong.addObserver(observer)
            second = strong
        }
        second?.removeObservers(ownedBy: observer)
        service.flushUnusedResources()
        #expect(second == nil)
    }
}

@MainActor
@Suite("Service: resources observed after a flush", .checksLifetimes)
struct ObservedAfterFlushTests {
    let harness = Harness()

    final class Owner {}

    @Test("B20 a resource demoted by a flush, then observed, stays alive while observed")
    func observedAfterDemotion() {
        let owner = Owner()
        weak var weakResource: Resource?
        do {
            let resource = harness.service.resource("/late")
            harness.service.flushUnusedResources()  // unused at this point: held only weakly by the service
            resource.addObserver(owner: owner) { _, _ in }
            weakResource = resource
        }
        withExtendedLifetime(owner) {
            #expect(weakResource != nil)
            #expect(harness.service.resource("/late") === weakResource)
        }
    }

    @Test("D13 a resource demoted by a flush, then loading, stays alive while its request is in flight")
    func loadingAfterDemotion() {
        weak var weakResource: Resource?
        do {
            let resource = harness.service.resource("/late-load")
            harness.service.flushUnusedResources()
            resource.load()
            weakResource = resource
        }
        #expect(weakResource != nil)
        #expect(weakResource?.isLoading == true)
    }
}
