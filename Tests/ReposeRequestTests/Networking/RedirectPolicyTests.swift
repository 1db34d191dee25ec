import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("What a redirected request keeps")
struct RedirectPolicyTests {
    typealias Redirects = URLSessionProvider.Redirects

    @Test(
        "scheme, host and port make the origin; a missing port is the scheme's own; letter case does not count",
        arguments: [
            ("https://api.example.com/a", "https://api.example.com/b?x=1", true),
            ("https://API.example.com/a", "HTTPS://api.EXAMPLE.com/b", true),
            ("https://api.example.com/a", "https://api.example.com:443/b", true),
            ("http://api.example.com/a", "http://api.example.com:80/b", true),
            ("https://api.example.com/a", "http://api.example.com/a", false),
            ("https://api.example.com/a", "https://cdn.example.com/a", false),
            ("https://api.example.com/a", "https://api.example.com:8443/a", false),
            ("http://127.0.0.1:8080/a", "http://127.0.0.2:8080/a", false),
        ])
    func origins(from: String, to: String, same: Bool) throws {
        let first = try #require(URL(string: from))
        let second = try #require(URL(string: to))
        #expect(Redirects.isSameOrigin(first, second) == same)
        #expect(Redirects.isSameOrigin(second, first) == same)
    }

    @Test(
        "credentials and headers named like secrets are secret, in any letter case; ordinary headers are not",
        arguments: [
            ("Authorization", true), ("proxy-authorization", true), ("COOKIE", true), ("X-API-Key", true),
            ("X-Auth-Token", true), ("X-CSRF-Token", true), ("X-Session-ID", true), ("Apikey", true),
            ("Accept", false), ("Content-Type", false), ("If-None-Match", false), ("X-Request-ID", false),
            ("Idempotency-Key", false), ("User-Agent", false),
        ])
    func secretHeaders(name: String, secret: Bool) {
        #expect(Redirects.isSecret(headerNamed: name) == secret)
    }

    @Test("a request redirected to another origin, or from an unknown one, loses its secrets and keeps the rest")
    func stripping() throws {
        var request = URLRequest(url: try #require(URL(string: "https://cdn.example.com/file")))
        request.httpMethod = "PUT"
        request.httpBody = Data("body".utf8)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("a=b", forHTTPHeaderField: "Cookie")
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")

        for origin in [URL(string: "https://api.example.com/upload"), nil] {
            let redirected = Redirects.request(request, redirectedFrom: origin)
            #expect(redirected.value(forHTTPHeaderField: "Authorization") == nil)
            #expect(redirected.value(forHTTPHeaderField: "Cookie") == nil)
            #expect(redirected.value(forHTTPHeaderField: "Content-Type") == "text/plain")
            #expect(redirected.httpMethod == "PUT")
            #expect(redirected.httpBody == Data("body".utf8))
        }

        let sameOrigin = Redirects.request(request, redirectedFrom: URL(string: "https://cdn.example.com/old"))
        #expect(sameOrigin == request)
    }
}

extension LoggingTests {
    /// Nested in the serialized logging suite: it changes the process-wide list of sensitive names.
    @Suite("Redirects and the app's own sensitive names")
    struct RedirectSensitiveNamesTests {
        typealias Redirects = URLSessionProvider.Redirects

        @Test("a header the app named sensitive for logs is dropped on a cross-origin redirect too")
        func appNamesCount() {
            #expect(!Redirects.isSecret(headerNamed: "X-Tenant"))
            let saved = ReposeLog.sensitiveNames
            defer { ReposeLog.sensitiveNames = saved }
            ReposeLog.sensitiveNames.exactNames.insert("X-Tenant")
            #expect(Redirects.isSecret(headerNamed: "x-tenant"))
        }
    }
}
