import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider cookies and Foundation's cache", .hangLimit)
final class URLSessionProviderCookieTests {
    let server: LoopbackServer

    init() async throws {
        server = try await LoopbackServer()
    }

    @Test("by default a cookie the server set is neither kept nor sent: the configured Cookie header arrives as is")
    func noJarByDefault() async throws {
        let provider = URLSessionProvider()
        try #require(await response(to: URLRequest(url: server.url("/cookie?value=server")), from: provider) != nil)

        var request = URLRequest(url: server.url("/echo"))
        request.setValue("session=app", forHTTPHeaderField: "Cookie")
        #expect(try #require(await echo(of: request, from: provider)).headers["cookie"] == "session=app")
        #expect(
            try #require(await echo(of: URLRequest(url: server.url("/echo")), from: provider)).headers["cookie"] == nil)
    }

    @Test("by default no cookie is kept even when the app hands over a configuration with a cookie store")
    func noJarWithOwnConfiguration() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = true
        configuration.httpCookieAcceptPolicy = .always
        let provider = URLSessionProvider(configuration: configuration)
        try #require(await response(to: URLRequest(url: server.url("/cookie?value=server")), from: provider) != nil)

        #expect(
            try #require(await echo(of: URLRequest(url: server.url("/echo")), from: provider)).headers["cookie"] == nil)
        #expect(provider.session.configuration.httpCookieStorage == nil)
    }

    @Test("E11 the provider's session has no URLCache, whatever configuration the app hands over")
    func noURLCacheFromTheApp() async {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        configuration.requestCachePolicy = .returnCacheDataElseLoad
        let provider = URLSessionProvider(configuration: configuration)
        #expect(provider.session.configuration.urlCache == nil)
        #expect(provider.session.configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
        #expect(configuration.urlCache != nil)  // the app's own configuration is left as it was
    }

    @Test("with a cookie jar the server's cookie is sent back until removeAllCookies clears it")
    func optInJar() async throws {
        let provider = URLSessionProvider(keepsCookies: true)
        try #require(await response(to: URLRequest(url: server.url("/cookie?value=server")), from: provider) != nil)
        #expect(
            try #require(await echo(of: URLRequest(url: server.url("/echo")), from: provider)).headers["cookie"]
                == "session=server")

        provider.removeAllCookies()

        #expect(
            try #require(await echo(of: URLRequest(url: server.url("/echo")), from: provider)).headers["cookie"] == nil)
    }

    @Test("two providers with jars do not share cookies")
    func jarsArePrivate() async throws {
        let first = URLSessionProvider(keepsCookies: true)
        let second = URLSessionProvider(keepsCookies: true)
        try #require(await response(to: URLRequest(url: server.url("/cookie?value=first")), from: first) != nil)

        #expect(
            try #require(await echo(of: URLRequest(url: server.url("/echo")), from: second)).headers["cookie"] == nil)
    }

    @Test("Foundation's HTTP cache is off by default: a response marked cacheable for an hour is asked for again")
    func noURLCache() async throws {
        let provider = URLSessionProvider()
        #expect(provider.session.configuration.urlCache == nil)
        let first = try #require(await response(to: URLRequest(url: server.url("/cacheable")), from: provider))
        let second = try #require(await response(to: URLRequest(url: server.url("/cacheable")), from: provider))
        #expect(String(decoding: first.body, as: UTF8.self) == "count 1")
        #expect(String(decoding: second.body, as: UTF8.self) == "count 2")
    }

    func response(
        to request: URLRequest, from provider: URLSessionProvider, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> NetworkResponse? {
        await RecordingTransfer.send(request, to: provider).response(sourceLocation: sourceLocation)
    }

    func echo(
        of request: URLRequest, from provider: URLSessionProvider, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Echo? {
        guard let response = await response(to: request, from: provider, sourceLocation: sourceLocation) else {
            return nil
        }
        return try? JSONDecoder().decode(Echo.self, from: response.body)
    }
}
