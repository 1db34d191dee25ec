import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@Suite("StubResponse")
struct StubResponseTests {
    @Test("JSON bodies are written with sorted keys and get a JSON content type unless one is given")
    func json() throws {
        let object = try StubResponse.json(["b": 1, "a": [true, "x"]], status: 201).result.get()
        #expect(object.statusCode == 201)
        #expect(object.body == Data(#"{"a":[true,"x"],"b":1}"#.utf8))
        #expect(object.headers == ["Content-Type": "application/json"])

        let custom = try StubResponse.json([1, 2], headers: ["content-type": "application/vnd.api+json"]).result.get()
        #expect(custom.headers == ["content-type": "application/vnd.api+json"])
    }

    @Test("an Encodable value is encoded with the encoder given")
    func encodable() throws {
        struct User: Encodable { var fullName: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let response = try StubResponse.json(encoding: User(fullName: "Ada"), encoder: encoder).result.get()
        #expect(response.body == Data(#"{"full_name":"Ada"}"#.utf8))
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test(
        "[intended failure] JSON that JSON cannot hold records a failure and becomes a stub error instead of crashing")
    func invalidJSON() throws {
        var response: StubResponse?
        withKnownIssue {
            response = StubResponse.json(["when": Date()])
        } matching: { issue in
            issue.mentions("StubResponse.json was given something JSON cannot hold")
        }
        let made = try #require(response)
        let error = #expect(throws: StubError.self) { try made.result.get() }
        #expect(error?.reason == .invalidStub)
    }

    @Test("text is UTF-8 with a text content type; status and error responses carry what they are given")
    func textStatusAndError() throws {
        let text = try StubResponse.text("héllo", status: 500).result.get()
        #expect(text.statusCode == 500)
        #expect(text.body == Data("héllo".utf8))
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")

        let status = try StubResponse.status(304, headers: ["ETag": "\"v1\""]).result.get()
        #expect(status == NetworkResponse(statusCode: 304, headers: ["ETag": "\"v1\""]))

        #expect(throws: URLError(.timedOut)) { try StubResponse.error(URLError(.timedOut)).result.get() }
    }
}
