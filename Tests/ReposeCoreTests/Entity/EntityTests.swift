import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@Suite("Entity")
struct EntityTests {
    @Test("A7 charset is read from the content type wherever it stands among the parameters")
    func charsetAmongParameters() {
        let entity = Entity<Any>(content: "", contentType: "text/plain; foo=bar; charset=euc-jp; baz=1", timestamp: 0)
        #expect(entity.charset == "euc-jp")
    }

    @Test("A7 a quoted parameter is read whole, as Link and Cache-Control read theirs: a semicolon in it ends nothing")
    func charsetAfterQuotedParameter() {
        #expect(MediaType.parameter("charset", in: #"text/plain; title="a;charset=x"; charset=utf-8"#) == "utf-8")
        #expect(MediaType.parameter("charset", in: #"text/plain; Charset = "utf\-8""#) == "utf-8")
        #expect(MediaType.parameter("charset", in: #"text/plain; charset="""#) == "")
        #expect(MediaType.parameter("charset", in: "text/plain; charset; charset=; charset=utf-8") == "utf-8")
        #expect(MediaType.parameter("charset", in: "text/plain; charset=") == nil)
    }

    @Test("A8 a response without Content-Type is application/octet-stream")
    func defaultContentType() {
        let entity = Entity<Any>(response: NetworkResponse(statusCode: 200), content: Data(), timestamp: 0)
        #expect(entity.contentType == "application/octet-stream")
    }

    @Test("A9 header lookup ignores case and is nil for absent headers")
    func headerLookup() {
        let entity = Entity<Any>(
            response: NetworkResponse(statusCode: 200, headers: ["X-Custom": "yes", "ETag": "\"v1\""]),
            content: Data(), timestamp: 0)
        #expect(entity.header(forKey: "x-CUSTOM") == "yes")
        #expect(entity.header(forKey: "X-Missing") == nil)
        #expect(entity.etag == "\"v1\"")
    }
}
