import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@Suite("StubMatcher")
struct StubMatcherTests {
    let url = "https://api.example.com/users"

    func post(_ body: String?, headers: [String: String] = [:]) -> RecordedRequest {
        RecordedRequest(httpMethod: "POST", url: url, headers: headers, body: body.map { Data($0.utf8) })
    }

    @Test("a method of nil matches any method; a given method only itself")
    func methods() {
        #expect(StubMatcher(nil, url).matches(RecordedRequest(httpMethod: "PATCH", url: url)))
        #expect(StubMatcher(.patch, url).matches(RecordedRequest(httpMethod: "patch", url: url)))
        #expect(!StubMatcher(.get, url).matches(RecordedRequest(httpMethod: "HEAD", url: url)))
    }

    @Test("an exact URL must match the whole text; a predicate sees the parsed URL")
    func urls() {
        #expect(!StubMatcher(.get, url).matches(RecordedRequest(url: url + "/")))
        #expect(!StubMatcher(.get, url).matches(RecordedRequest(url: url + "?a=1")))
        let byPath = StubMatcher(.get, where: { $0.path.hasPrefix("/users") })
        #expect(byPath.matches(RecordedRequest(url: url + "/42?expand=all")))
        #expect(!byPath.matches(RecordedRequest(url: "https://api.example.com/teams")))
    }

    @Test("headers match by name in any letter case and by exact value")
    func headers() {
        let matcher = StubMatcher(.post, url).header("Authorization", "Bearer abc")
        #expect(matcher.matches(post(nil, headers: ["authorization": "Bearer abc"])))
        #expect(!matcher.matches(post(nil, headers: ["Authorization": "Bearer xyz"])))
        #expect(!matcher.matches(post(nil)))
    }

    @Test("bodies match as bytes, as text, as JSON whatever the key order, or by predicate")
    func bodies() {
        #expect(StubMatcher(.post, url).body(Data("a=1".utf8)).matches(post("a=1")))
        #expect(!StubMatcher(.post, url).body(Data("a=1".utf8)).matches(post("a=2")))
        #expect(StubMatcher(.post, url).body(text: "héllo").matches(post("héllo")))
        #expect(!StubMatcher(.post, url).body(text: "hello").matches(post(nil)))

        let json = StubMatcher(.post, url).body(json: ["name": "Ada", "tags": [1, 2]])
        #expect(json.matches(post(#"{ "tags": [1, 2], "name": "Ada" }"#)))
        #expect(!json.matches(post(#"{"name":"Ada","tags":[2,1]}"#)))
        #expect(!json.matches(post("not json")))
        #expect(StubMatcher(.post, url).body(json: [1, "two"]).matches(post(#"[1,"two"]"#)))

        let large = StubMatcher(.post, url).body(where: { $0.count > 3 })
        #expect(large.matches(post("1234")))
        #expect(!large.matches(post(nil)))
    }

    @Test("a matcher describes its method, URL and conditions for failure messages")
    func descriptions() {
        #expect(StubMatcher(nil, url).description == "any method \(url)")
        let matcher = StubMatcher(.post, label: "users", where: { _ in true }).header("X-A", "1").body(text: "hi")
        #expect(matcher.description == #"POST users (X-A: 1, body "hi")"#)
    }

    @Test("[intended failure] a JSON body that JSON cannot hold records a failure and matches nothing")
    func invalidJSONBody() throws {
        var matcher: StubMatcher?
        withKnownIssue {
            matcher = StubMatcher(.post, url).body(json: ["when": Date()])
        } matching: { issue in
            issue.mentions("StubMatcher.body(json:) was given something JSON cannot hold")
        }
        #expect(!(try #require(matcher)).matches(post("{}")))
    }
}
