import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A local override must not be kept by a 304 meant for the server's data it replaced.
@MainActor
@Suite("Local overrides and validators", .checksLifetimes)
struct LocalOverrideValidatorTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/profile") }

    @Test("A31 after a local override, the next load sends no validator, so the server's data comes back")
    func overrideDropsValidators() async {
        await harness.answer(
            resource.load(), text: "server",
            headers: ["ETag": "\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        resource.overrideLocalContent(with: "local edit")
        #expect(resource.latestData?.etag == "\"v1\"")  // the entity keeps its headers (A31)
        let reload = resource.load()
        let sent = harness.network.sent.last
        #expect(sent?.header("If-None-Match") == nil)
        #expect(sent?.header("If-Modified-Since") == nil)
        await harness.answer(reload, text: "server", headers: ["ETag": "\"v1\""])
        #expect(resource.text == "server")
        let next = resource.load()
        #expect(harness.network.sent.last?.header("If-None-Match") == "\"v1\"")
        await harness.answer(next, status: 304)
    }

    @Test("A31 a 304 to a load sent before a local override does not confirm the override as the server's data")
    func lateConfirmationFails() async {
        await harness.answer(resource.load(), text: "server", headers: ["ETag": "\"v1\""])
        let reload = resource.load()
        resource.overrideLocalContent(with: "local edit")
        await harness.answer(reload, status: 304)
        #expect(resource.latestError?.httpStatusCode == 304)
        #expect(resource.text == "local edit")
        harness.clock.now += 2  // past the retry time: the next check loads, without a validator
        let retry = resource.loadIfNeeded()
        #expect(retry != nil)
        #expect(harness.network.sent.last?.header("If-None-Match") == nil)
        if let retry { await harness.answer(retry, text: "server") }
        #expect(resource.text == "server")
    }

    @Test("M4 an optimistic change keeps the validator: a 304 keeps the server's data and the change on top")
    func changesKeepValidator() async {
        await harness.answer(resource.load(), contentType: "application/json", text: "{}", headers: ["ETag": "\"v1\""])
        let edit = resource.request(.patch, json: ["a": 1], showing: .merge(["a": 1]))
        let reload = resource.load()
        #expect(harness.network.sent.last?.header("If-None-Match") == "\"v1\"")
        await harness.network.respond(status: 500)
        _ = await edit.responseInfo
        await harness.answer(reload, status: 304)
        #expect(resource.jsonDict.isEmpty)
        #expect(resource.latestError == nil)
    }
}
