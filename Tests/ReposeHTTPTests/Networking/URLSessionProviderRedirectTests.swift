import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider redirects")
final class URLSessionProviderRedirectTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("a redirect on the same origin keeps every header")
    func sameOriginKeepsHeaders() async throws {
        let echo = try #require(await echo(afterRedirectTo: server.url("/echo").absoluteString))
        #expect(echo.path == "/echo")
        #expect(echo.headers["authorization"] == "Bearer secret")
        #expect(echo.headers["cookie"] == "session=app")
        #expect(echo.headers["x-api-key"] == "key")
        #expect(echo.headers["accept"] == "application/json")
    }

    @Test("a redirect to another host drops Authorization, Cookie and other secret headers, and keeps the rest")
    func otherHostDropsSecrets() async throws {
        // 127.0.0.2 is loopback on Linux; elsewhere the same host on another port is also another origin.
        #if os(Linux)
        let other = try await LoopbackServer(host: "127.0.0.2")
        #else
        let other = try await LoopbackServer()
        #endif
        let echo = try #require(await echo(afterRedirectTo: other.url("/echo").absoluteString))
        #expect(echo.path == "/echo")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["proxy-authorization"] == nil)
        #expect(echo.headers["cookie"] == nil)
        #expect(echo.headers["x-api-key"] == nil)
        #expect(echo.headers["x-auth-token"] == nil)
        #expect(echo.headers["accept"] == "application/json")
        #expect(echo.headers["x-request-id"] == "42")
    }

    @Test("a redirect to the same host on another port is another origin and drops the secret headers")
    func otherPortDropsSecrets() async throws {
        let other = try await LoopbackServer()
        let echo = try #require(await echo(afterRedirectTo: other.url("/echo").absoluteString))
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["cookie"] == nil)
        #expect(echo.headers["accept"] == "application/json")
    }

    @Test("a redirect loop fails with too many redirects instead of going round forever")
    func loop() async throws {
        let error = try #require(
            await RecordingTransfer.send(URLRequest(url: server.url("/redirect/loop")), to: provider).error())
        #expect((error as? URLError)?.code == .httpTooManyRedirects)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    /// Sends a request carrying secret and ordinary headers to a redirect to `target`, and returns what `/echo`
    /// saw at the end.
    func echo(afterRedirectTo target: String, sourceLocation: SourceLocation = #_sourceLocation) async -> Echo? {
        var components = URLComponents(url: server.url("/redirect"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "to", value: target)]
        guard let url = components?.url else { return nil }
        var request = URLRequest(url: url)
        let headers = [
            "Authorization": "Bearer secret", "Proxy-Authorization": "Basic cHJveHk=", "Cookie": "session=app",
            "X-API-Key": "key", "X-Auth-Token": "token", "Accept": "application/json", "X-Request-ID": "42",
        ]
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let recording = RecordingTransfer.send(request, to: provider)
        guard let response = await recording.response(sourceLocation: sourceLocation) else { return nil }
        #expect(response.statusCode == 200, sourceLocation: sourceLocation)
        return try? JSONDecoder().decode(Echo.self, from: response.body)
    }
}
