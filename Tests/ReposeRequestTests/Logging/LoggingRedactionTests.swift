import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension LoggingTests {
    @Suite("Log redaction")
    struct RedactionTests {
        static let sensitiveNames = [
            "Authorization", "authorization", "AUTHORIZATION", "aUtHoRiZaTiOn",
            "Proxy-Authorization", "proxy-authorization", "PROXY-AUTHORIZATION",
            "Cookie", "cookie", "COOKIE", "Set-Cookie", "set-cookie", "SET-COOKIE", "sEt-CoOkIe",
        ]

        @Test("redactingHeaders hides the value of each sensitive header in any letter case", arguments: sensitiveNames)
        func redactsEachSensitiveHeader(name: String) {
            let redacted = ReposeLog.redactingHeaders([name: "s3cret", "Accept": "text/plain"])
            #expect(redacted == [name: "<redacted>", "Accept": "text/plain"])
        }

        @Test("redactingHeaders leaves other headers alone, including ones that merely contain a sensitive name")
        func keepsOtherHeaders() {
            let headers = [
                "X-Authorization-Hint": "a", "Cookie-Policy": "b", "Content-Type": "c", "ETag": "d",
            ]
            #expect(ReposeLog.redactingHeaders(headers) == headers)
        }

        @Test("describe(headers:) hides sensitive values, sorts by name and quotes the rest")
        func describeHeaders() {
            let line = ReposeLog.describe(
                headers: ["set-COOKIE": "id=1", "Accept": "a, b", "authorization": "Bearer x"])
            #expect(line == #"[Accept: "a, b", authorization: <redacted>, set-COOKIE: <redacted>]"#)
        }

        @Test("a header value cannot break the log line")
        func valuesAreEscaped() {
            let line = ReposeLog.describe(headers: ["X-Note": "one\nAuthorization: two"])
            #expect(line == #"[X-Note: "one\nAuthorization: two"]"#)
            #expect(!line.contains("\n"))
        }

        @Test("describing a request shows method, URL, redacted headers and body size", arguments: sensitiveNames)
        func describeRequest(name: String) throws {
            var request = URLRequest(url: try #require(URL(string: "https://zingle.frotz/v1/users")))
            request.httpMethod = "POST"
            request.setValue("s3cret", forHTTPHeaderField: name)
            request.httpBody = Data("{}".utf8)
            let line = ReposeLog.describe(request)
            #expect(line.hasPrefix("POST https://zingle.frotz/v1/users ["))
            #expect(line.hasSuffix("<redacted>], body 2 bytes"))
            #expect(!line.contains("s3cret"))
        }

        @Test("describing a response shows status, byte count and redacted headers")
        func describeResponse() {
            let response = NetworkResponse(
                statusCode: 201, headers: ["Set-Cookie": "session=s3cret", "Content-Type": "text/plain"],
                body: Data("hello".utf8))
            #expect(
                ReposeLog.describe(response)
                    == #"201, 5 bytes [Content-Type: "text/plain", Set-Cookie: <redacted>]"#)
        }

        @Test("the formatters always redact: there is no switch that shows secrets")
        func alwaysRedacts() throws {
            var request = URLRequest(url: try #require(URL(string: "https://zingle.frotz/v1")))
            request.setValue("Basic czNjcmV0", forHTTPHeaderField: "Proxy-Authorization")
            #expect(ReposeLog.describe(request) == "GET https://zingle.frotz/v1 [Proxy-Authorization: <redacted>]")
            let response = NetworkResponse(statusCode: 200, headers: ["Cookie": "s3cret"])
            #expect(ReposeLog.describe(response) == "200, 0 bytes [Cookie: <redacted>]")
            #expect(ReposeLog.redactingHeaders(["Cookie": "a"]) == ["Cookie": "<redacted>"])
        }
    }
}
