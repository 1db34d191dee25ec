import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Local overrides, invalidation and wiping", .checksLifetimes)
struct ResourceLocalStateTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    final class Model {}

    @Test("A30 overrideLocalData installs exactly the given entity and clears the error")
    func overrideLocalData() async throws {
        await harness.answer(resource.load(), status: 500)
        let model = Model()
        let entity = Entity<Any>(content: model, contentType: "custom/type", timestamp: 1234)
        resource.overrideLocalData(with: entity)
        let installed = try #require(resource.latestData)
        let installedModel = installed.content as? Model
        #expect(installedModel === model)
        #expect(installed.contentType == "custom/type")
        #expect(installed.timestamp == 1234)
        #expect(resource.latestError == nil)
    }

    @Test("A31 overrideLocalContent replaces only the content and refreshes the timestamp")
    func overrideLocalContent() async throws {
        await harness.answer(
            resource.load(), contentType: "text/plain; charset=utf-8", text: "old", headers: ["X-Kept": "1"])
        harness.clock.now = 1500
        resource.overrideLocalContent(with: "new")
        let entity = try #require(resource.latestData)
        #expect(entity.content as? String == "new")
        #expect(entity.contentType == "text/plain; charset=utf-8")
        #expect(entity.header(forKey: "x-kept") == "1")
        #expect(entity.timestamp == 1500)
        #expect(resource.timestamp == 1500)
    }

    @Test("A31 overrideLocalContent without data uses application/binary")
    func overrideLocalContentWithoutData() {
        resource.overrideLocalContent(with: [1, 2])
        #expect(resource.latestData?.contentType == "application/binary")
        #expect(resource.jsonArray.count == 2)
    }

    @Test("A33 invalidate sends nothing, keeps data and timestamps, and makes the next loadIfNeeded load")
    func invalidate() async {
        await harness.answer(resource.load(), text: "x")
        let timestamp = resource.timestamp
        resource.invalidate()
        #expect(harness.network.sent.count == 1)
        #expect(resource.latestData != nil)
        #expect(resource.timestamp == timestamp)
        #expect(resource.loadIfNeeded() != nil)
    }

    @Test("A34 a completed load consumes the invalidation", arguments: [200, 500])
    func loadConsumesInvalidation(status: Int) async {
        await harness.answer(resource.load(), text: "x")
        resource.invalidate()
        await harness.answer(resource.loadIfNeeded()!, status: status)
        harness.clock.now += 0.5
        #expect(resource.loadIfNeeded() == nil)
    }

    @Test("A34 a local override consumes the invalidation")
    func overrideConsumesInvalidation() async {
        await harness.answer(resource.load(), text: "x")
        resource.invalidate()
        resource.overrideLocalContent(with: "y")
        #expect(resource.loadIfNeeded() == nil)
    }

    @Test("A35 a cancelled load does not consume the invalidation")
    func cancelledLoadKeepsInvalidation() async {
        await harness.answer(resource.load(), text: "x")
        resource.invalidate()
        resource.loadIfNeeded()?.cancel()
        #expect(resource.loadIfNeeded() != nil)
    }

    @Test("A36 wipe clears data and error")
    func wipe() async {
        await harness.answer(resource.load(), text: "x")
        await harness.answer(resource.load(), status: 500)
        let observer = RecordingObserver()
        resource.addObserver(observer)
        resource.wipe()
        #expect(resource.latestData == nil)
        #expect(resource.latestError == nil)
        #expect(observer.events == ["observerAdded", "newData(wipe)"])
    }

    @Test("A38 wipe cancels requests attached with load(using:), even those made by another resource")
    func wipeCancelsAttachedRequests() {
        let other = harness.service.resource("/other")
        let borrowed = other.request(.post)
        resource.load(using: borrowed)
        let ownLoad = resource.load()
        resource.wipe()
        #expect(borrowed.state == .completed)
        #expect(ownLoad.state == .completed)
        #expect(resource.loadRequests.isEmpty)
        #expect(!resource.isLoading)
    }
}
