import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Service configuration: scope, precedence and laziness", .checksLifetimes)
struct ServiceConfigurationTests {
    let harness = Harness()
    var service: Service { harness.service }
    var resource: Resource { service.resource("/a/b") }

    @Test("D14 a global configure affects every resource, and its description is only a label")
    func globalConfiguration() {
        service.configure(description: "/a/b") { $0.expirationTime = 7 }
        let resources = [
            resource, service.resource("/x/y/z"), service.resource(""),
            service.resource(absoluteURL: "https://other.host/elsewhere"),
        ]
        #expect(resources.map(\.configuration.expirationTime) == [7, 7, 7, 7])
    }

    @Test("D15 options a configuration does not set keep their defaults")
    func unsetOptionsKeepDefaults() {
        service.configure { $0.retryTime = 5 }
        #expect(resource.configuration.retryTime == 5)
        #expect(resource.configuration.expirationTime == 30)
        #expect(resource.configuration.headers.isEmpty)
    }

    @Test("D16 configure(resource) affects only that URL")
    func singleResource() {
        service.configure(resource) { $0.expirationTime = 3 }
        #expect(resource.configuration.expirationTime == 3)
        #expect(service.resource("/a/b").configuration.expirationTime == 3)
        #expect(resource.child("c").configuration.expirationTime == 30)
        #expect(resource.withParam("x", "1").configuration.expirationTime == 30)
        #expect(service.resource("/a").configuration.expirationTime == 30)
    }

    @Test("D16 configure(whenURLMatches:) affects only the URLs the predicate accepts")
    func predicate() {
        service.configure(whenURLMatches: { $0.path.hasSuffix("/b") }) { $0.expirationTime = 4 }
        #expect(resource.configuration.expirationTime == 4)
        #expect(service.resource("/c/b").configuration.expirationTime == 4)
        #expect(service.resource("/a/c").configuration.expirationTime == 30)
    }

    @Test("D17 requestMethods limits a configuration; configuration is GET's view, configuration(for:) any method's")
    func perMethod() {
        service.configure(requestMethods: [.post]) { $0.headers["X-Post"] = "yes" }
        service.configure(requestMethods: [.get, .put]) { $0.expirationTime = 9 }
        #expect(resource.configuration.headers["X-Post"] == nil)
        #expect(resource.configuration.expirationTime == 9)
        #expect(resource.configuration(for: .post).headers["X-Post"] == "yes")
        #expect(resource.configuration(for: .post).expirationTime == 30)
        #expect(resource.configuration(for: .put).expirationTime == 9)
        #expect(resource.configuration(for: .delete).expirationTime == 30)
    }

    @Test("D17 per-method configuration reaches the requests of that method only")
    func perMethodRequests() {
        service.configure(requestMethods: [.post]) { $0.headers["X-Post"] = "yes" }
        resource.request(.post)
        resource.request(.get)
        #expect(harness.network.sent.map { $0.header("X-Post") } == ["yes", nil])
    }

    @Test("D24 a later configure overrides an earlier one for the same option, at once")
    func laterOverridesEarlier() {
        service.configure { $0.expirationTime = 10 }
        service.configure("/a/*") { $0.expirationTime = 20 }
        #expect(resource.configuration.expirationTime == 20)  // computed and cached here
        service.configure { $0.expirationTime = 40 }
        #expect(resource.configuration.expirationTime == 40)  // no invalidation needed
        #expect(service.resource("/x").configuration.expirationTime == 40)
    }

    @Test("D24 later configuration adds to headers set earlier and replaces the same name")
    func headersMerge() {
        service.configure { $0.headers = ["A": "1", "B": "1"] }
        service.configure(resource) { $0.headers["B"] = "2" }
        #expect(resource.configuration.headers == ["A": "1", "B": "2"])
    }

    @Test("D25 values read by a configuration closure take effect only after invalidateConfiguration()")
    func cachedUntilInvalidated() {
        let probe = ConfigurationProbe()
        service.configure { $0.headers["Authorization"] = probe.token }
        #expect(resource.configuration.headers["Authorization"] == "one")
        probe.token = "two"
        #expect(resource.configuration.headers["Authorization"] == "one")
        service.invalidateConfiguration()
        #expect(resource.configuration.headers["Authorization"] == "two")
    }

    @Test("D25 configuration closures run once per resource and method until something changes")
    func closuresRunOnce() {
        let probe = ConfigurationProbe()
        service.configure { _ in probe.runs += 1 }
        _ = resource.configuration
        _ = resource.configuration
        _ = resource.isUpToDate
        #expect(probe.runs == 1)
        _ = resource.configuration(for: .post)
        #expect(probe.runs == 2)
        service.invalidateConfiguration()
        _ = resource.configuration
        #expect(probe.runs == 3)
    }

    @Test("D25 D16 resources that match the same entries share one built configuration; others build their own")
    func sharedAcrossResources() {
        let global = ConfigurationProbe()
        let users = ConfigurationProbe()
        service.configure { _ in global.runs += 1 }
        service.configure("/users/*") {
            users.runs += 1
            $0.expirationTime = 5
        }
        let first = service.resource("/users/1")
        let second = service.resource("/users/2")
        let other = service.resource("/teams/1")
        #expect(first.configuration.expirationTime == 5)
        #expect(second.configuration.expirationTime == 5)
        #expect(other.configuration.expirationTime == 30)
        #expect(users.runs == 1)  // built for /users/1, shared with /users/2
        #expect(global.runs == 2)  // once with the /users/* entry, once without it
        service.invalidateConfiguration()
        #expect(second.configuration.expirationTime == 5)
        #expect(users.runs == 2)
    }

    @Test("D26 creating and navigating resources never runs configuration closures")
    func lazy() {
        let probe = ConfigurationProbe()
        service.configure { _ in probe.runs += 1 }
        service.configure("/a/**") { _ in probe.runs += 1 }
        let navigated = service.resource("/a").child("b").relative("c").withParam("x", "1")
            .withParams(["y": "2"]).optionalRelative("d")
        _ = service.resource(absoluteURL: "https://other.host/")
        #expect(navigated != nil)
        #expect(probe.runs == 0)
        _ = navigated?.configuration
        #expect(probe.runs == 2)
    }

    @Test("A23 a configured expirationTime and retryTime decide freshness for the resources they match")
    func freshnessOptions() async {
        service.configure("/a/*") {
            $0.expirationTime = 1
            $0.retryTime = 100
        }
        await harness.answer(resource.load(), text: "x")
        harness.clock.now = 1002
        #expect(!resource.isUpToDate)
        await harness.answer(resource.load(), status: 500)
        harness.clock.now = 1050
        #expect(resource.isUpToDate)
    }
}
