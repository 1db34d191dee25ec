import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("What a redirected request keeps: method, body and cookies")
final class RedirectBodyTests {
    let server: LoopbackServer
    let provider = URLSessionProvider()

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test(
        "W1 a 307 or 308 resends the method and the body",
        arguments: [(307, "POST"), (308, "POST"), (307, "PUT"), (308, "PATCH"), (307, "DELETE")])
    func temporaryAndPermanentKeepBody(status: Int, method: String) async throws {
        let echo = try #require(await echo(method, body: "the body", through: status))
        #expect(echo.path == "/echo")
        #expect(echo.method == method)
        #expect(echo.body == "the body")
        #expect(echo.headers["content-type"] == "text/plain")
        #expect(echo.headers["x-kept"] == "yes")
    }

    @Test("W1 a 301 or 302 turns a POST into a GET without a body or the body's headers", arguments: [301, 302])
    func movedPostBecomesGet(status: Int) async throws {
        let echo = try #require(await echo("POST", body: "the body", through: status))
        #expect(echo.method == "GET")
        #expect(echo.bodyLength == 0)
        #expect(echo.headers["content-type"] == nil)
        #expect(echo.headers["x-kept"] == "yes")
    }

    @Test("W1 a 301 or 302 keeps another method and its body, as browsers do", arguments: [301, 302])
    func movedPutKeepsBody(status: Int) async throws {
        let echo = try #require(await echo("PUT", body: "the body", through: status))
        #expect(echo.method == "PUT")
        #expect(echo.body == "the body")
    }

    @Test("W1 a 303 turns any method into a GET without a body", arguments: ["POST", "PUT", "DELETE", "PATCH"])
    func seeOtherBecomesGet(method: String) async throws {
        let echo = try #require(await echo(method, body: "the body", through: 303))
        #expect(echo.method == "GET")
        #expect(echo.bodyLength == 0)
        #expect(echo.headers["content-type"] == nil)
    }

    @Test("W1 a 307 to another origin resends the body without the secret headers")
    func otherOriginKeepsBodyDropsSecrets() async throws {
        #if os(Linux)
        let other = try await LoopbackServer(host: "127.0.0.2")
        #else
        let other = try await LoopbackServer()
        #endif
        let echo = try #require(
            await echo(
                "POST", body: "the body", through: 307, to: other.url("/echo").absoluteString,
                headers: ["Authorization": "Bearer secret", "Cookie": "session=app"]))
        #expect(echo.method == "POST")
        #expect(echo.body == "the body")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["cookie"] == nil)
    }

    @Test("W1 a streamed multipart body is read again from its file for a 307")
    func streamedBodyIsReadAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("repose-redirect-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("photo.bin")
        let content = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try content.write(to: file)
        let body = try MultipartBody(parts: [.field("title", "Holiday"), .file("photo", at: file)])

        var request = URLRequest(url: try redirect(to: "/multipart", status: 307))
        request.httpMethod = "POST"
        request.httpBodyStream = MultipartBodyStream(body: body)
        request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
        let response = try #require(await RecordingTransfer.send(request, to: provider).response())
        #expect(response.statusCode == 200)
        let report = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let parts = try #require(report["parts"] as? [[String: Any]])
        #expect(parts.count == 2)
        #expect(parts.first?["text"] as? String == "Holiday")
        #expect(parts.last?["length"] as? Int == content.count)
    }

    @Test("W1 a 307 loop with a body fails with too many redirects")
    func loopWithBody() async throws {
        var request = URLRequest(url: server.url("/redirect/loop?status=307"))
        request.httpMethod = "POST"
        request.httpBody = Data("the body".utf8)
        let error = try #require(await RecordingTransfer.send(request, to: provider).error())
        #expect((error as NSError).code == URLError.httpTooManyRedirects.rawValue)
        #expect(provider.delegate?.activeTransferCount == 0)
    }

    @Test("W2 with the jar on, a cookie set by a redirect goes with the rest of the chain and later requests")
    func cookieFromRedirect() async throws {
        let provider = URLSessionProvider(keepsCookies: true)
        var login = URLRequest(
            url: server.url("/headers/login?status=302&Location=/echo&Set-Cookie=session%3Dabc%3B%20Path%3D%2F"))
        login.httpMethod = "POST"
        login.httpBody = Data("user=u".utf8)
        let response = try #require(await RecordingTransfer.send(login, to: provider).response())
        let home = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(home.method == "GET")
        #expect(home.headers["cookie"] == "session=abc")

        let later = try #require(
            await RecordingTransfer.send(URLRequest(url: server.url("/echo")), to: provider).response())
        #expect(try JSONDecoder().decode(Echo.self, from: later.body).headers["cookie"] == "session=abc")
    }

    @Test("W2 without the jar, a cookie set by a redirect is not sent on")
    func noJarNoCookieFromRedirect() async throws {
        let login = URLRequest(
            url: server.url("/headers/login?status=302&Location=/echo&Set-Cookie=session%3Dabc%3B%20Path%3D%2F"))
        let response = try #require(await RecordingTransfer.send(login, to: provider).response())
        #expect(try JSONDecoder().decode(Echo.self, from: response.body).headers["cookie"] == nil)
    }

    func redirect(to target: String, status: Int) throws -> URL {
        var components = try #require(URLComponents(url: server.url("/redirect"), resolvingAgainstBaseURL: false))
        components.queryItems = [
            URLQueryItem(name: "to", value: target), URLQueryItem(name: "status", value: "\(status)"),
        ]
        return try #require(components.url)
    }

    /// Sends `method` with `body` to a redirect answered `status`, and returns what `/echo` (or `to`) saw.
    func echo(
        _ method: String, body: String, through status: Int, to target: String = "/echo",
        headers: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Echo? {
        guard let url = try? redirect(to: target, status: status) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = Data(body.utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        request.setValue("yes", forHTTPHeaderField: "X-Kept")
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let recording = RecordingTransfer.send(request, to: provider)
        guard let response = await recording.response(sourceLocation: sourceLocation) else { return nil }
        #expect(response.statusCode == 200, sourceLocation: sourceLocation)
        return try? JSONDecoder().decode(Echo.self, from: response.body)
    }
}
