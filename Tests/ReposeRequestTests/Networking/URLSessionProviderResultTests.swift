import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionProvider result mapping")
struct URLSessionProviderResultTests {
    let url = URL(fileURLWithPath: "/")

    @Test("any HTTP status is a response, with the headers as strings")
    func httpResponse() throws {
        let http = try #require(
            HTTPURLResponse(url: url, statusCode: 418, httpVersion: "HTTP/1.1", headerFields: ["X-Tea": "green"]))
        let response = try URLSessionProvider.result(response: http, body: Data("short".utf8), error: nil).get()
        #expect(response.statusCode == 418)
        #expect(response.headers["X-Tea"] == "green")
        #expect(response.body == Data("short".utf8))
    }

    @Test("a response that is not HTTP fails with badServerResponse")
    func nonHTTPResponse() {
        let plain = URLResponse(
            url: url, mimeType: "text/plain", expectedContentLength: 0, textEncodingName: nil)
        for response in [plain, nil] {
            let result = URLSessionProvider.result(response: response, body: Data(), error: nil)
            #expect(throws: URLError(.badServerResponse)) { try result.get() }
        }
    }

    @Test("a transport error wins over a partial response")
    func errorWinsOverResponse() throws {
        let partial = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
        let result = URLSessionProvider.result(
            response: partial, body: Data("half".utf8), error: URLError(.networkConnectionLost))
        #expect(throws: URLError(.networkConnectionLost)) { try result.get() }
    }
}
