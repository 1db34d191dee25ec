import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Freshness reads GET's expiration and retry times from a cache of plain numbers; these check that the cache
/// follows configuration changes made after it was filled.
@MainActor
@Suite("Resource freshness follows configuration changes", .checksLifetimes)
struct ResourceFreshnessTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    /// Outside state that a configurer reads.
    final class Setting {
        var expiration: TimeInterval = 30
    }

    @Test("A23 an expirationTime configured after a freshness check applies to the next check")
    func expirationConfiguredLater() {
        resource.overrideLocalContent(with: "x")  // data at 1000
        harness.clock.now = 1010
        #expect(resource.isUpToDate)  // default expirationTime 30
        harness.service.configure { $0.expirationTime = 5 }
        #expect(!resource.isUpToDate)
        harness.service.configure("/a/*") { $0.expirationTime = 60 }
        #expect(resource.isUpToDate)
    }

    @Test("A25 a retryTime configured after a freshness check applies to the next check")
    func retryConfiguredLater() async {
        await harness.answer(resource.load(), status: 500)  // error at 1000
        harness.clock.now = 1002
        #expect(!resource.isUpToDate)  // default retryTime 1
        harness.service.configure { $0.retryTime = 10 }
        #expect(resource.isUpToDate)
    }

    @Test("A23 invalidateConfiguration makes freshness re-read a configurer that reads outside state")
    func invalidateConfigurationRereads() {
        let setting = Setting()
        harness.service.configure { $0.expirationTime = setting.expiration }
        resource.overrideLocalContent(with: "x")
        harness.clock.now = 1010
        #expect(resource.isUpToDate)
        setting.expiration = 5
        #expect(resource.isUpToDate)  // configuration is cached until invalidated
        harness.service.invalidateConfiguration()
        #expect(!resource.isUpToDate)
    }

    @Test("A23 configuration for other methods does not change GET's freshness")
    func otherMethodsIgnored() {
        harness.service.configure(requestMethods: [.post]) { $0.expirationTime = 1 }
        resource.overrideLocalContent(with: "x")
        harness.clock.now = 1010
        #expect(resource.isUpToDate)
    }
}

@MainActor
@Suite("Resource timestamps follow every change to the data and the error", .checksLifetimes)
struct ResourceTimestampTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("A25 the timestamp is the later of the data's and the error's, through loads, overrides and wipes")
    func timestampFollowsChanges() async {
        #expect(resource.timestamp == 0)
        resource.overrideLocalContent(with: "x")
        #expect(resource.timestamp == 1000)
        harness.clock.now = 1005
        await harness.answer(resource.load(), status: 500)
        #expect(resource.timestamp == 1005)
        harness.clock.now = 1007
        await harness.answer(resource.load(), status: 304)
        #expect(resource.latestError == nil)
        #expect(resource.timestamp == 1007)  // 304 refreshes the data's timestamp in place
        resource.wipe()
        #expect(resource.timestamp == 0)
        #expect(!resource.isUpToDate)
    }

    @Test("A25 after a failure then a success, freshness uses expirationTime again")
    func successAfterFailure() async {
        await harness.answer(resource.load(), status: 500)  // error at 1000
        harness.clock.now = 1002
        #expect(!resource.isUpToDate)  // retryTime 1
        await harness.answer(resource.load(), text: "x")  // data at 1002
        harness.clock.now = 1010
        #expect(resource.isUpToDate)  // expirationTime 30
    }
}
