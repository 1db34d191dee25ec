import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Resource loads over real HTTP", .checksLifetimes)
final class ResourceLoadIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("A4 B9 a load is loading from the moment it starts until its response is handled, then has new data")
    func loadingThenNewData() async throws {
        let resource = service.resource("/echo")
        let observer = RecordingObserver()
        var loadingWhenNotified: [Bool] = []
        observer.onChange = { resource, _ in loadingWhenNotified.append(resource.isLoading) }
        resource.addObserver(observer)

        let request = resource.load()
        #expect(resource.isLoading)
        #expect(resource.latestData == nil)
        try #require(await fixture.completion(of: request) != nil)

        #expect(!resource.isLoading)
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        #expect(loadingWhenNotified == [false, true, false])
        #expect(resource.latestError == nil)
        #expect(resource.latestData?.contentType == "application/json")
        #expect(EchoedRequest(resource.latestData)?.method == "GET")
        #expect(request.progress == 1)
    }

    @Test("A20 A22 loadIfNeeded shares the load in flight, then skips the network while the data is fresh")
    func loadIfNeededDeduplicates() async throws {
        let resource = service.resource("/echo")
        let first = try #require(resource.loadIfNeeded())
        #expect(resource.loadIfNeeded() === first)
        #expect(resource.loadRequests.count == 1)
        try #require(await fixture.completion(of: first) != nil)
        #expect(resource.latestData != nil)
        #expect(resource.loadIfNeeded() == nil)
        #expect(!resource.isLoading)
    }

    @Test("A12 B11 a second load revalidates with the ETag: a real 304 keeps the data and reports not modified")
    func etagRevalidation() async throws {
        let resource = service.resource("/etag/v1")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        try #require(await fixture.completion(of: resource.load()) != nil)
        let loaded = try #require(resource.latestData)
        #expect(loaded.bodyText == "version v1")
        #expect(loaded.etag == "\"v1\"")

        var hooks: [String] = []
        let revalidation = resource.load()
            .onSuccess { _ in hooks.append("success") }
            .onNewData { _ in hooks.append("newData") }
            .onNotModified { hooks.append("notModified") }
        let info = try #require(await fixture.completion(of: revalidation))

        #expect(!info.isNew)
        #expect(hooks == ["success", "notModified"])
        #expect(observer.events == ["observerAdded", "requested", "newData(network)", "requested", "notModified"])
        #expect(resource.latestData?.bodyText == "version v1")
        #expect(resource.latestData?.etag == "\"v1\"")
        #expect(resource.latestError == nil)
    }

    @Test("A12 a real 304 after a failed refresh clears the error and keeps the data")
    func notModifiedClearsError() async throws {
        let resource = service.resource("/etag/v1")
        try #require(await fixture.completion(of: resource.load()) != nil)
        let failing = service.resource("/status/500").request(.get)
        try #require(await fixture.completion(of: resource.load(using: failing)) != nil)
        #expect(resource.latestError?.httpStatusCode == 500)

        let info = try #require(await fixture.completion(of: resource.load()))
        #expect(!info.isNew)
        #expect(resource.latestError == nil)
        #expect(resource.latestData?.bodyText == "version v1")
    }

    @Test("B12 a real 304 with no local data fails the load with NoLocalDataFor304")
    func notModifiedWithoutData() async throws {
        let resource = service.resource("/etag/v1")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let conditional = resource.request(.get) { $0.setValue("\"v1\"", forHTTPHeaderField: "If-None-Match") }
        try #require(await fixture.completion(of: resource.load(using: conditional)) != nil)
        #expect(resource.latestError?.cause is RequestError.Cause.NoLocalDataFor304)
        #expect(resource.latestData == nil)
        #expect(observer.events == ["observerAdded", "requested", "error"])
    }

    @Test("P1 observers hear a large body's progress, growing and ending at exactly 1")
    func observersHearProgress() async throws {
        let resource = service.resource("/bytes/2000000")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        try #require(await fixture.completion(of: request) != nil)
        #expect(resource.latestData?.bodyBytes?.count == 2_000_000)
        #expect(observer.progressReports.last == 1)
        #expect(observer.progressReports == observer.progressReports.sorted())
        #expect(observer.progressReports.allSatisfy { $0 > 0 && $0 <= 1 })
    }

    @Test("A11 a 200 to a stale ETag replaces the content, the content type and the ETag")
    func staleETagGetsNewContent() async throws {
        let resource = service.resource("/etag/v2")
        resource.overrideLocalData(
            with: Entity<Any>(content: Data("old".utf8), contentType: "application/x-old", headers: ["ETag": "\"v1\""]))
        let info = try #require(await fixture.completion(of: resource.load()))
        #expect(info.isNew)
        #expect(resource.latestData?.bodyText == "version v2")
        #expect(resource.latestData?.etag == "\"v2\"")
        #expect(resource.latestData?.contentType == "text/plain; charset=utf-8")
        #expect(resource.latestData?.charset == "utf-8")
    }

    @Test(
        "A14 B14 every error status fails the load with its status code and the server's body",
        arguments: [400, 401, 403, 404, 409, 410, 422, 500, 501, 502, 503])
    func errorStatuses(status: Int) async throws {
        let resource = service.resource("/status/\(status)")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        let info = try #require(await fixture.completion(of: request))

        let error = try #require(resource.latestError)
        #expect(request.progress == 1)
        #expect(info.response.error?.httpStatusCode == status)
        #expect(error.httpStatusCode == status)
        #expect(!error.userMessage.isEmpty)
        #expect(error.entity?.bodyText == "status \(status)")
        #expect(resource.latestData == nil)
        #expect(!resource.isLoading)
        #expect(observer.events == ["observerAdded", "requested", "error"])
        #expect(info.response.isCancellation == false)
    }

    @Test("A14 a 401 that asks for credentials fails the load at once, with the server's body")
    func credentialChallenge() async throws {
        let resource = service.resource("/status/401").withParam("auth", "Basic realm=\"repose\"")
        try #require(await fixture.completion(of: resource.load()) != nil)
        #expect(resource.latestError?.httpStatusCode == 401)
        #expect(resource.latestError?.userMessage == "Unauthorized")
        #expect(resource.latestError?.entity?.bodyText == "credentials, please")
        #expect(resource.latestError?.entity?.header(forKey: "www-authenticate") == "Basic realm=\"repose\"")
    }

    @Test("a chunked body, whose length is not known up front, arrives whole")
    func chunkedBody() async throws {
        let resource = service.resource("/chunked/300000")
        let request = resource.load()
        try #require(await fixture.completion(of: request) != nil)
        #expect(resource.latestData?.bodyBytes == Data(repeating: UInt8(ascii: "c"), count: 300_000))
        #expect(resource.latestData?.contentType == "application/octet-stream")
        #expect(request.progress == 1)
    }

    @Test("F10 a JSON error body stays readable on the error", arguments: [404, 500])
    func jsonErrorBodies(status: Int) async throws {
        let resource = service.resource("/status/\(status)").withParam("body", "json")
        try #require(await fixture.completion(of: resource.load()) != nil)
        let error = try #require(resource.latestError)
        #expect(error.httpStatusCode == status)
        let bytes = try #require(error.entity?.bodyBytes)
        let body = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        #expect(body?["status"] as? Int == status)
        #expect(body?["message"] as? String == "status \(status)")
    }

    @Test("A15 after a server error the earlier data stays, next to the error")
    func staleDataSurvivesErrors() async throws {
        let resource = service.resource("/status/503")
        resource.overrideLocalContent(with: Data("kept".utf8))
        try #require(await fixture.completion(of: resource.load()) != nil)
        #expect(resource.latestError?.httpStatusCode == 503)
        #expect(resource.latestData?.bodyText == "kept")
    }
}
