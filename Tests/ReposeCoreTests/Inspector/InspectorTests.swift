import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Inspector: a snapshot of every live resource", .checksLifetimes)
struct InspectorTests {
    let harness = Harness()
    var service: Service { harness.service }

    final class Owner {}

    /// The snapshot row for the resource at `path` under the base URL.
    func row(_ path: String) throws -> ResourceSnapshot {
        let url = ReposeLog.describe(url: service.resource(path).url)
        return try #require(service.inspect().resources.first { $0.url == url })
    }

    /// A table line's cells: the columns are separated by two spaces or more.
    func columns(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("lists every live resource once, ordered by URL, stamped with the service's clock")
    func listsLiveResources() {
        let resources = [service.resource("/b"), service.resource("/a"), service.resource("/a/c")]
        let snapshot = service.inspect()
        #expect(snapshot.time == 1000)
        #expect(
            snapshot.resources.map(\.url) == [
                "https://zingle.frotz/v1/a", "https://zingle.frotz/v1/a/c", "https://zingle.frotz/v1/b",
            ])
        _ = resources
    }

    @Test("state: empty, then loading, then data, then loading with data, then data with an error")
    func stateColumn() async throws {
        let resource = service.resource("/a")
        #expect(try row("/a").status == "empty")
        let load = resource.load()
        #expect(try row("/a").status == "loading")
        await harness.answer(load, text: "hello")
        #expect(try row("/a").status == "data")
        let failing = resource.load()
        #expect(try row("/a").status == "loading+data")
        await harness.answer(failing, status: 500)
        let snapshot = try row("/a")
        #expect(snapshot.status == "error+data")
        #expect(snapshot.hasError && snapshot.hasData && !snapshot.isLoading)
        #expect(snapshot.latestErrorMessage == "Internal server error")
    }

    @Test("age follows the service's clock, and freshness follows expirationTime")
    func ageAndFreshness() async throws {
        let resource = service.resource("/a")
        #expect(try row("/a").age == nil)
        #expect(try !row("/a").isUpToDate)
        await harness.answer(resource.load(), text: "hello")
        harness.scheduler.advance(by: .seconds(12))
        let young = try row("/a")
        #expect(young.age == 12)
        #expect(young.isUpToDate)
        harness.scheduler.advance(by: .seconds(30))
        let old = try row("/a")
        #expect(old.age == 42)
        #expect(!old.isUpToDate)
    }

    @Test("observers: objects, closures and subscribed signals count while alive; looking prunes nothing")
    func observerColumn() throws {
        let resource = service.resource("/a")
        let observer = RecordingObserver()
        let owner = Owner()
        var shortLived: Owner? = Owner()
        resource.addObserver(observer, owner: owner)
        resource.addObserver(owner: owner) { _, _ in }
        resource.addObserver(owner: shortLived ?? owner) { _, _ in }
        let first = resource.state.observe { _ in }
        let second = resource.state.observe { _ in }
        #expect(try row("/a").observerCount == 4)  // the state's two subscriptions feed it through one observer
        shortLived = nil
        #expect(try row("/a").observerCount == 3)
        #expect(observer.stoppedCount == 0)
        first.cancel()
        second.cancel()
        #expect(try row("/a").observerCount == 2)
        resource.removeObservers(ownedBy: owner)
    }

    @Test("requests in flight count loads and other requests")
    func requestColumn() async throws {
        let resource = service.resource("/a")
        let load = resource.load()
        let post = resource.request(.post, text: "x")
        #expect(try row("/a").requestsInFlight == 2)
        await harness.answer(load)
        await harness.answer(post)
        #expect(try row("/a").requestsInFlight == 0)
    }

    @Test("ETag, content type and size: bytes of Data and of text, Content-Length for parsed content")
    func entityColumns() async throws {
        let text = service.resource("/text")
        await harness.answer(
            text.load(), contentType: "text/plain; charset=utf-8", text: "héllo", headers: ["ETag": "\"v1\""])
        let textRow = try row("/text")
        #expect(textRow.etag == "\"v1\"")
        #expect(textRow.contentType == "text/plain; charset=utf-8")
        #expect(textRow.contentSize == 6)

        let bytes = service.resource("/bytes")
        let load = bytes.load()
        await harness.network.respond(headers: ["Content-Type": "application/octet-stream"], body: Data(count: 300))
        _ = await load.responseInfo
        #expect(try row("/bytes").contentSize == 300)

        let json = service.resource("/json")
        await harness.answer(
            json.load(), contentType: "application/json", text: #"{"a": 1}"#, headers: ["Content-Length": "8"])
        #expect(try row("/json").contentSize == 8)
        let unknown = service.resource("/unknown")
        await harness.answer(unknown.load(), contentType: "application/json", text: "[1]")
        #expect(try row("/unknown").contentSize == nil)
    }

    @Test("no secret reaches the snapshot or its table: query tokens, user-info, URLs in error messages")
    func redaction() async throws {
        let secretQuery = service.resource("/search").withParam("access_token", "s3cretQuery").withParam("q", "x")
        let userInfo = service.resource(absoluteURL: "https://ada:s3cretPassword@zingle.frotz/v1/me")
        await harness.answer(secretQuery.load(), text: "found")
        let failing = userInfo.load()
        await harness.network.fail(with: URLError(.cannotConnectToHost))
        _ = await failing.responseInfo
        let snapshot = service.inspect()
        let table = snapshot.table(maximumErrorLength: 500)
        #expect(!table.contains("s3cret"))
        #expect(!"\(snapshot)".contains("s3cret"))
        #expect(!"\(snapshot.resources)".contains("s3cret"))
        #expect(table.contains("access_token=<redacted>"))
        #expect(table.contains("https://ada:<redacted>@zingle.frotz/v1/me"))
    }

    @Test("the table has a header and one aligned line per resource, with every column")
    func table() async throws {
        let resource = service.resource("/users/1")
        await harness.answer(resource.load(), text: "hello", headers: ["ETag": "\"v1\""])
        harness.scheduler.advance(by: .seconds(3))
        resource.addObserver(owner: harness) { _, _ in }
        let failing = service.resource("/broken")
        await harness.answer(failing.load(), status: 404)
        let lines = service.inspect().table().split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("url "))
        #expect(lines[0].hasSuffix("error"))
        #expect(
            columns(lines[1]) == [
                "https://zingle.frotz/v1/broken", "error", "0.0s", "yes", "0", "0", "-", "-", "-", "Not found",
            ])
        #expect(
            columns(lines[2]) == [
                "https://zingle.frotz/v1/users/1", "data", "3.0s", "yes", "1", "0", "5", "\"v1\"", "-", "-",
            ])
        let stateColumn = try #require(lines[0].range(of: "state")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].dropFirst(stateColumn).hasPrefix("error "))
        #expect(lines[2].dropFirst(stateColumn).hasPrefix("data "))
        resource.removeObservers(ownedBy: harness)
    }

    @Test("long error messages are cut to the table's limit, on one line")
    func longErrors() async throws {
        let resource = service.resource("/a")
        let load = resource.load()
        await harness.network.fail(with: URLError(.timedOut))
        _ = await load.responseInfo
        let message = try #require(try row("/a").latestErrorMessage)
        let table = service.inspect().table(maximumErrorLength: 10)
        #expect(message.count > 10)
        #expect(table.contains(String(message.prefix(9)) + "…"))
        #expect(!table.contains(message))
    }
}
