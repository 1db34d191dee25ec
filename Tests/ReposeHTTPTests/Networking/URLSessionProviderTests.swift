import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider against a loopback server", .hangLimit)
final class URLSessionProviderTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "E1 each method arrives at the server with its body",
        arguments: [("GET", nil), ("POST", "created"), ("PUT", "replaced"), ("PATCH", "patched"), ("DELETE", "gone")])
    func methodAndBodyArrive(method: String, body: String?) async throws {
        var request = URLRequest(url: server.url("/echo?x=1"))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        let echo = try #require(await echo(of: request))
        #expect(echo.method == method)
        #expect(echo.path == "/echo")
        #expect(echo.query == "x=1")
        #expect(echo.body == (body ?? ""))
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("E3 headers set on the request and on the session configuration arrive")
    func headersArrive() async throws {
        let configuration = URLSessionProvider.defaultConfiguration
        configuration.httpAdditionalHeaders = ["X-Session-Header": "from configuration"]
        let provider = URLSessionProvider(configuration: configuration)
        var request = URLRequest(url: server.url("/echo"))
        request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
        request.setValue("application/vnd.test+json", forHTTPHeaderField: "Accept")
        let echo = try #require(await echo(of: request, using: provider))
        #expect(echo.headers["authorization"] == "Bearer abc")
        #expect(echo.headers["accept"] == "application/vnd.test+json")
        #expect(echo.headers["x-session-header"] == "from configuration")
    }

    @Test("A9 response headers are delivered with the body")
    func responseHeadersArrive() async throws {
        let response = try #require(await send(URLRequest(url: server.url("/echo"))).response())
        #expect(response.statusCode == 200)
        #expect(header("content-type", in: response) == "application/json")
        #expect(header("content-length", in: response) == String(response.body.count))
    }

    @Test("A12 revalidating with the ETag brings a real 304 with an empty body")
    func etagRevalidation() async throws {
        let first = try #require(await send(URLRequest(url: server.url("/etag/v1"))).response())
        #expect(first.statusCode == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "version v1")
        let etag = try #require(header("etag", in: first))
        #expect(etag == "\"v1\"")

        var revalidation = URLRequest(url: server.url("/etag/v1"))
        revalidation.setValue(etag, forHTTPHeaderField: "If-None-Match")
        let second = try #require(await send(revalidation).response())
        #expect(second.statusCode == 304)
        #expect(second.body.isEmpty)

        revalidation.setValue("\"v0\"", forHTTPHeaderField: "If-None-Match")
        let changed = try #require(await send(revalidation).response())
        #expect(changed.statusCode == 200)
    }

    @Test("A14 error statuses arrive as responses with their bodies", arguments: [400, 401, 404, 409, 500, 503])
    func errorStatusesAreResponses(status: Int) async throws {
        let text = try #require(await send(URLRequest(url: server.url("/status/\(status)"))).response())
        #expect(text.statusCode == status)
        #expect(String(decoding: text.body, as: UTF8.self) == "status \(status)")

        let json = try #require(await send(URLRequest(url: server.url("/status/\(status)?body=json"))).response())
        #expect(json.statusCode == status)
        let object = try JSONSerialization.jsonObject(with: json.body) as? [String: Any]
        #expect(object?["status"] as? Int == status)
    }

    @Test(
        "A14 a 401 that asks for credentials arrives as a response, without waiting for a timeout",
        arguments: ["Basic realm=\"repose\"", "Bearer realm=\"repose\"", "Bearer"])
    func credentialChallenge(scheme: String) async throws {
        var components = try #require(URLComponents(url: server.url("/status/401"), resolvingAgainstBaseURL: false))
        components.queryItems = [URLQueryItem(name: "auth", value: scheme)]
        var request = URLRequest(url: try #require(components.url))
        // Waiting for the timeout would end in a timeout error, not a response; the wait is long only for a busy machine.
        request.timeoutInterval = 300
        let recording = send(request)
        let response = try #require(await recording.response(within: .seconds(120)))
        #expect(response.statusCode == 401)
        #expect(String(decoding: response.body, as: UTF8.self) == "credentials, please")
        #expect(header("www-authenticate", in: response) == scheme)
        #expect(recording.completionCount == 1)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("E2 a HEAD request and a 204 answer deliver an empty body")
    func emptyBodies() async throws {
        var head = URLRequest(url: server.url("/echo"))
        head.httpMethod = "HEAD"
        let headResponse = try #require(await send(head).response())
        #expect(headResponse.statusCode == 200)
        #expect(headResponse.body.isEmpty)

        var post = URLRequest(url: server.url("/status/204"))
        post.httpMethod = "POST"
        post.httpBody = Data("ignored".utf8)
        let noContent = try #require(await send(post).response())
        #expect(noContent.statusCode == 204)
        #expect(noContent.body.isEmpty)
    }

    @Test("a provider over a session from outside delivers responses without progress")
    func providedSession() async throws {
        let provider = URLSessionProvider(session: URLSession(configuration: URLSessionProvider.defaultConfiguration))
        #expect(provider.delegate == nil)
        var request = URLRequest(url: server.url("/echo"))
        request.httpMethod = "POST"
        request.httpBody = Data("hello".utf8)
        let recording = RecordingTransfer()
        _ = provider.startTransfer(request, into: recording)
        let response = try #require(await recording.response())
        #expect(response.statusCode == 200)
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(echo.body == "hello")
        #expect(recording.progressSamples.allSatisfy { $0.bytesSent == 0 && $0.bytesReceived == 0 })  // a length only
        #expect(recording.completionCount == 1)
    }

    @Test("a provider is freed once its owner lets go")
    func lifetimes() async throws {
        weak var weakProvider: URLSessionProvider?
        do {
            let provider = URLSessionProvider()
            let recording = RecordingTransfer()
            weakProvider = provider
            _ = provider.startTransfer(URLRequest(url: server.url("/echo")), into: recording)
            #expect(try #require(await recording.response()).statusCode == 200)
            #expect(provider.delegate?.activeTransferCount == 0)
        }
        #expect(weakProvider == nil)
    }

    // MARK: Helpers

    func send(_ request: URLRequest, using provider: URLSessionProvider? = nil) -> RecordingTransfer {
        let recording = RecordingTransfer()
        _ = (provider ?? self.provider).startTransfer(request, into: recording)
        return recording
    }

    func echo(
        of request: URLRequest, using provider: URLSessionProvider? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Echo? {
        let recording = send(request, using: provider)
        guard let response = await recording.response(sourceLocation: sourceLocation) else { return nil }
        #expect(response.statusCode == 200, sourceLocation: sourceLocation)
        #expect(recording.completionCount == 1, sourceLocation: sourceLocation)
        return try? JSONDecoder().decode(Echo.self, from: response.body)
    }

    func header(_ name: String, in response: NetworkResponse) -> String? {
        response.headers.first { $0.key.lowercased() == name }?.value
    }
}

/// What the loopback server's `/echo` route answers.
struct Echo: Decodable {
    var method: String
    var path: String
    var query: String
    var headers: [String: String]
    var body: String
    var bodyLength: Int
}
