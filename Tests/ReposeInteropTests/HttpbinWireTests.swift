import Foundation
import Repose
import Testing

/// httpbin, as PyPI ships it, served by gunicorn: redirects, cookies, encodings, statuses and authentication.
@MainActor
@Suite("httpbin: HTTP as a server nobody here wrote speaks it", .enabled(if: InteropServers.httpbin != nil))
struct HttpbinWireTests {
    let service: Service

    init() throws {
        service = try Interop.service(InteropServers.httpbin)
    }

    @Test(
        "W1 a 307 or 308 resends the method and the JSON body to where it points",
        arguments: [("307", RequestMethod.post), ("308", .put), ("307", .patch)])
    func redirectKeepsBody(status: String, method: RequestMethod) async throws {
        let redirect = service.resource("/redirect-to").withParams(["url": "/anything", "status_code": status])
        let entity = try #require(await Interop.entity(of: redirect.request(method, json: ["answer": 42])))
        #expect(entity.jsonDict["method"] as? String == method.rawValue)
        #expect((entity.jsonDict["json"] as? [String: Any])?["answer"] as? Int == 42)
    }

    @Test("W1 a 302 turns a POST into a GET without a body; a 303 turns a PUT into one", arguments: ["302", "303"])
    func redirectBecomesGet(status: String) async throws {
        let redirect = service.resource("/redirect-to").withParams(["url": "/anything", "status_code": status])
        let method: RequestMethod = status == "302" ? .post : .put
        let entity = try #require(await Interop.entity(of: redirect.request(method, json: ["answer": 42])))
        #expect(entity.jsonDict["method"] as? String == "GET")
        #expect(entity.jsonDict["data"] as? String == "")
    }

    @Test("W2 with the jar on, a cookie set by a redirect reaches the page it points to and later requests")
    func cookieAcrossRedirect() async throws {
        let service = try Interop.service(InteropServers.httpbin, keepsCookies: true)
        let set = service.resource("/cookies/set").withParam("flavour", "oat")
        let entity = try #require(await Interop.entity(of: set.load()))
        #expect((entity.jsonDict["cookies"] as? [String: Any])?["flavour"] as? String == "oat")
        let later = try #require(await Interop.entity(of: service.resource("/cookies").load()))
        #expect((later.jsonDict["cookies"] as? [String: Any])?["flavour"] as? String == "oat")
    }

    @Test(
        "F7 gzip and deflate bodies are decoded, then parsed as JSON",
        arguments: [("/gzip", "gzipped"), ("/deflate", "deflated")])
    func compressed(path: String, flag: String) async throws {
        let entity = try #require(await Interop.entity(of: service.resource(path).load()))
        #expect(entity.jsonDict[flag] as? Bool == true)
    }

    @Test("F7 a brotli body is decoded, on Linux too (libcurl decodes it for Foundation)")
    func brotli() async throws {
        let entity = try #require(await Interop.entity(of: service.resource("/brotli").load()))
        #expect(entity.jsonDict["brotli"] as? Bool == true)
    }

    @Test(
        "A14 error statuses fail with their status and reason; success statuses succeed",
        arguments: [(404, false), (418, false), (500, false), (503, false), (200, true), (204, true)])
    func statuses(code: Int, succeeds: Bool) async throws {
        let info = try #require(await Interop.outcome(of: service.resource("/status/\(code)").load()))
        switch info.response {
        case .success:
            #expect(succeeds)
        case .failure(let error):
            #expect(!succeeds)
            #expect(error.httpStatusCode == code)
            #expect(!error.userMessage.isEmpty)
        }
    }

    @Test("F6 raw bytes under application/octet-stream load as Data")
    func bytes() async throws {
        let entity = try #require(await Interop.entity(of: service.resource("/bytes/1000").load()))
        #expect((entity.content as? Data)?.count == 1000)
    }

    @Test("A14 basic authentication: the right credential is accepted, a wrong one is a 401 error, not a hang")
    func basicAuth() async throws {
        let resource = service.resource("/basic-auth/user/pass")
        let good = resource.request(.get) { $0.setValue("Basic dXNlcjpwYXNz", forHTTPHeaderField: "Authorization") }
        let entity = try #require(await Interop.entity(of: good))
        #expect(entity.jsonDict["authenticated"] as? Bool == true)
        let bad = resource.request(.get) { $0.setValue("Basic dXNlcjp3cm9uZw==", forHTTPHeaderField: "Authorization") }
        #expect(try #require(await Interop.error(of: bad)).httpStatusCode == 401)
    }

    @Test("A14 bearer authentication: a token is accepted, none is a 401 error")
    func bearerAuth() async throws {
        let resource = service.resource("/bearer")
        let good = resource.request(.get) { $0.setValue("Bearer abc", forHTTPHeaderField: "Authorization") }
        #expect(try #require(await Interop.entity(of: good)).jsonDict["token"] as? String == "abc")
        #expect(try #require(await Interop.error(of: resource.request(.get))).httpStatusCode == 401)
    }

    @Test("W7 a body that drips over two seconds reports progress while it comes")
    func dripProgress() async throws {
        let drip = service.resource("/drip").withParams(
            ["numbytes": "20000", "duration": "2", "delay": "0", "code": "200"])
        let request = drip.load()
        var seen: [Double] = []
        request.onProgress { seen.append($0) }
        _ = try #require(await Interop.entity(of: request))
        let during = seen.filter { $0 < 1 }
        #expect(during.count >= 10, "progress: \(seen)")
        #expect(seen == seen.sorted())
        #expect(seen.last == 1)
    }

    @Test("W4 with HTTP freshness on, /cache/N is fresh for N seconds and /cache/0 is not")
    func cacheLifetime() async throws {
        service.configure { $0.freshness = .fromHTTPHeaders }
        let fresh = service.resource("/cache/600")
        _ = try #require(await Interop.entity(of: fresh.load()))
        #expect(fresh.isUpToDate)
        let stale = service.resource("/cache/0")
        _ = try #require(await Interop.entity(of: stale.load()))
        #expect(!stale.isUpToDate)
    }

    @Test("R3 /cache answers a second load with 304: the data stays and is not new")
    func cacheRevalidates() async throws {
        let resource = service.resource("/cache")
        let first = try #require(await Interop.outcome(of: resource.load()))
        #expect(first.isNew)
        let second = try #require(await Interop.outcome(of: resource.load()))
        #expect(!second.isNew)
        #expect(resource.latestData != nil)
    }
}
