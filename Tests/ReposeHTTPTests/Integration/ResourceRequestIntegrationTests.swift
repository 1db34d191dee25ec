import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Resource requests over real HTTP", .checksLifetimes)
final class ResourceRequestIntegrationTests {
    let fixture: IntegrationFixture
    var service: Service { fixture.service }

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("E1 a load sends a GET with the resource's query, and the echo becomes the resource's data")
    func loadSendsGet() async throws {
        let resource = service.resource("/echo").withParam("page", "2")
        let info = try #require(await fixture.completion(of: resource.load()))
        #expect(info.isNew)
        let echo = try #require(EchoedRequest(resource.latestData))
        #expect(echo.method == "GET")
        #expect(echo.path == "/echo")
        #expect(echo.query == "page=2")
        #expect(echo.bodyLength == 0)
        #expect(resource.latestError == nil)
    }

    @Test(
        "E1 E15 each method arrives with exactly the bytes and content type given",
        arguments: [RequestMethod.post, .put, .patch, .delete])
    func methodsCarryTheirBodies(method: RequestMethod) async throws {
        let resource = service.resource("/echo")
        let body = "{\"verb\":\"\(method.rawValue)\",\"ünïcode\":true}"
        let request = resource.request(method, data: Data(body.utf8), contentType: "application/x-repose-test")
        let info = try #require(await fixture.completion(of: request))
        let echo = try #require(EchoedRequest(info.response.entity))
        #expect(echo.method == method.rawValue)
        #expect(echo.body == body)
        #expect(echo.bodyLength == Data(body.utf8).count)
        #expect(echo.headers["content-type"] == "application/x-repose-test")
        // A request is not a load: the resource's state stays as it was.
        #expect(resource.latestData == nil)
    }

    @Test("E3 configured headers are sent, and later configuration overrides earlier for the same header")
    func configuredHeaders() async throws {
        service.configure { $0.headers["X-Api-Key"] = "first" }
        service.configure { $0.headers["Accept-Language"] = "fr" }
        service.configure { $0.headers["X-Api-Key"] = "second" }
        let resource = service.resource("/echo")
        try #require(await fixture.completion(of: resource.load()) != nil)
        let echo = try #require(EchoedRequest(resource.latestData))
        #expect(echo.headers["x-api-key"] == "second")
        #expect(echo.headers["accept-language"] == "fr")
    }

    @Test("D17 headers configured for POST reach POSTs only")
    func headersPerMethod() async throws {
        service.configure(requestMethods: [.post]) { $0.headers["X-Post-Only"] = "yes" }
        let resource = service.resource("/echo")
        let get = try #require(await fixture.completion(of: resource.load()))
        let post = try #require(
            await fixture.completion(of: resource.request(.post, data: Data(), contentType: "text/plain")))
        #expect(EchoedRequest(get.response.entity)?.headers["x-post-only"] == nil)
        #expect(EchoedRequest(post.response.entity)?.headers["x-post-only"] == "yes")
    }

    @Test("E4 configured mutators run for every request, sent again each time")
    func mutatorsRunEachTime() async throws {
        var counter = 0
        service.configure {
            $0.mutateRequests { request in
                counter += 1
                request.setValue(String(counter), forHTTPHeaderField: "X-Attempt")
            }
        }
        let resource = service.resource("/echo")
        var attempts: [String?] = []
        for _ in 1...2 {
            let info = try #require(await fixture.completion(of: resource.load()))
            attempts.append(EchoedRequest(info.response.entity)?.headers["x-attempt"])
        }
        #expect(attempts == ["1", "2"])
    }

    @Test("E20 the content type that arrives: configured mutators over the ad hoc mutation over the body helper")
    func contentTypePrecedence() async throws {
        service.configure { $0.headers["Content-Type"] = "a/configured-header" }
        let resource = service.resource("/echo")
        let body = Data("x".utf8)

        func sentContentType(_ request: Request) async throws -> String? {
            let info = try #require(await fixture.completion(of: request))
            return EchoedRequest(info.response.entity)?.headers["content-type"]
        }

        #expect(try await sentContentType(resource.request(.post, data: body, contentType: "b/helper")) == "b/helper")
        let adHoc = resource.request(.post, data: body, contentType: "b/helper") {
            $0.setValue("c/ad-hoc", forHTTPHeaderField: "Content-Type")
        }
        #expect(try await sentContentType(adHoc) == "c/ad-hoc")

        service.configure { $0.mutateRequests { $0.setValue("d/mutator", forHTTPHeaderField: "Content-Type") } }
        let mutated = resource.request(.post, data: body, contentType: "b/helper") {
            $0.setValue("c/ad-hoc", forHTTPHeaderField: "Content-Type")
        }
        #expect(try await sentContentType(mutated) == "d/mutator")
    }

    @Test("A26 load(using:) a POST makes the POST's response the resource's data and tells observers")
    func loadUsingPost() async throws {
        let resource = service.resource("/echo")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let post = resource.request(.post, data: Data("posted".utf8), contentType: "text/plain")
        resource.load(using: post)
        #expect(resource.isLoading)
        try #require(await fixture.completion(of: post) != nil)
        let echo = try #require(EchoedRequest(resource.latestData))
        #expect(echo.method == "POST")
        #expect(echo.body == "posted")
        #expect(observer.events == ["observerAdded", "requested", "newData(network)"])
        #expect(!resource.isLoading)
    }

    @Test("E13 E14 a repeated request is sent again, built from the configuration as it is now")
    func repeatedPicksUpConfiguration() async throws {
        let token = MutableState("first")
        service.configure { $0.headers["Authorization"] = "Bearer \(token.value)" }
        let original = service.resource("/echo").request(.post, data: Data("same".utf8), contentType: "text/plain")
        let firstInfo = try #require(await fixture.completion(of: original))

        token.value = "second"
        service.invalidateConfiguration()
        let repeated = original.repeated()
        #expect(repeated.state == .notStarted)
        let secondInfo = try #require(await fixture.completion(of: repeated.start()))

        let first = try #require(EchoedRequest(firstInfo.response.entity))
        let second = try #require(EchoedRequest(secondInfo.response.entity))
        #expect(first.headers["authorization"] == "Bearer first")
        #expect(second.headers["authorization"] == "Bearer second")
        #expect(second.body == "same")
        #expect(EchoedRequest(original.completedResponse?.response.entity)?.headers["authorization"] == "Bearer first")
    }

    @Test("D7 D8 the path is escaped on the wire and the base URL's query goes with every request")
    func urlOnTheWire() async throws {
        let service = Service(
            baseURL: "http://127.0.0.1:\(fixture.server.port)/echo?key=k", options: .init(networking: fixture.provider))
        LifetimeCheck.track(service)
        let resource = service.resource("/ünï cøde?x")
        try #require(await fixture.completion(of: resource.load()) != nil)
        let echo = try #require(EchoedRequest(resource.latestData))
        #expect(echo.path == "/echo/%C3%BCn%C3%AF%20c%C3%B8de%3Fx")
        #expect(echo.query == "key=k")
    }

    @Test("A20 loads of many resources at once all complete, each with its own answer")
    func concurrentLoads() async throws {
        let resources = (1...12).map { service.resource("/echo").withParam("n", String($0)) }
        let requests = resources.map { $0.load() }
        for request in requests {
            try #require(await fixture.completion(of: request) != nil)
        }
        let queries = resources.map { EchoedRequest($0.latestData)?.query }
        #expect(queries == (1...12).map { "n=\($0)" })
    }

    @Test("E2 a HEAD answer and a 204 answer give empty content, and count as success")
    func emptyBodies() async throws {
        let head = try #require(await fixture.completion(of: service.resource("/status/200").request(.head)))
        let headEntity = try #require(head.response.entity)
        #expect(headEntity.bodyBytes?.isEmpty == true)

        // The echo route names a JSON content type even for HEAD; with no body there is nothing to parse.
        let jsonHead = try #require(await fixture.completion(of: service.resource("/echo").request(.head)))
        #expect(jsonHead.response.error == nil)
        #expect(jsonHead.response.entity?.bodyBytes?.isEmpty == true)

        let noContent = service.resource("/status/204").request(.post, data: Data("x".utf8), contentType: "text/plain")
        let info = try #require(await fixture.completion(of: noContent))
        let entity = try #require(info.response.entity)
        #expect(entity.content as? Data == Data())
    }
}
