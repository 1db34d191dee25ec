import Foundation
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
@Suite("Request verbs and body helpers", .checksLifetimes)
struct RequestBodyHelperTests {
    let harness = Harness()
    var service: Service { harness.service }
    var resource: Resource { service.resource("/a/b") }
    var lastSent: RecordedRequest? { harness.network.sent.last }
    var lastBody: String? { lastSent?.body.map { String(decoding: $0, as: UTF8.self) } }
    var lastContentType: String? { lastSent?.header("Content-Type") }

    @Test("E1 request(_:) sends one network call with its verb", arguments: RequestMethod.allCases)
    func verbs(method: RequestMethod) async {
        let request = resource.request(method)
        #expect(harness.network.sent.count == 1)
        #expect(lastSent?.httpMethod == method.rawValue)
        #expect(lastSent?.url == resource.url.absoluteString)
        let info = await harness.answer(request, contentType: "application/octet-stream", text: "ok")
        #expect(info.response.entity?.content as? Data == Data("ok".utf8))
    }

    @Test("E1 request(_:) does not change the resource's state")
    func requestIsNotLoad() async {
        await harness.answer(resource.request(.get), contentType: "application/octet-stream", text: "ok")
        #expect(resource.latestData == nil)
        #expect(!resource.isLoading)
    }

    @Test("E2 a response without a body yields zero-length Data", arguments: [(RequestMethod.head, 200), (.post, 204)])
    func emptyBody(method: RequestMethod, status: Int) async throws {
        let request = resource.request(method)
        await harness.network.respond(status: status)
        let entity = try #require(await request.response.entity)
        #expect(entity.content as? Data == Data())
    }

    @Test("E15 request(_:data:contentType:) sends exactly those bytes with that Content-Type")
    func data() {
        let bytes = Data([0, 1, 2, 0xFF, 0xFE])
        resource.request(.put, data: bytes, contentType: "application/x-limerick")
        #expect(lastSent?.body == bytes)
        #expect(lastContentType == "application/x-limerick")
        #expect(lastSent?.httpMethod == "PUT")
    }

    @Test("request(_:text:) sends UTF-8 labelled text/plain; charset=utf-8 by default")
    func textDefaults() {
        resource.request(.post, text: "Grüße")
        #expect(lastSent?.body == Data("Grüße".utf8))
        #expect(lastContentType == "text/plain; charset=utf-8")
    }

    @Test("request(_:text:contentType:encoding:) writes the encoding's charset after the given type")
    func textCustom() {
        resource.request(.post, text: "Grüße", contentType: "text/markdown", encoding: .isoLatin1)
        #expect(lastSent?.body == Data([0x47, 0x72, 0xFC, 0xDF, 0x65]))
        #expect(lastContentType == "text/markdown; charset=iso-8859-1")
    }

    @Test("E17 text the encoding cannot represent fails at once with UnencodableText, and nothing is sent")
    func unencodableText() throws {
        let request = resource.request(.post, text: "snowman ☃", encoding: .ascii)
        #expect(request.state == .completed)
        let error = try #require(request.completedResponse?.response.error)
        let cause = try #require(error.cause as? RequestError.Cause.UnencodableText)
        #expect(cause.encoding == .ascii && cause.text == "snowman ☃")
        #expect(error.timestamp == 1000)
        #expect(harness.network.sent.isEmpty)
        #expect(!resource.isRequesting)
    }

    @Test("E18 request(_:json:) sends compact JSON labelled application/json")
    func json() {
        resource.request(.post, json: ["name": "Ada", "langs": ["en", "fr"], "age": 36] as [String: Any])
        #expect(lastBody == #"{"age":36,"langs":["en","fr"],"name":"Ada"}"#)
        #expect(lastContentType == "application/json")
    }

    @Test("E18 request(_:json:contentType:) takes another JSON media type")
    func jsonContentType() {
        resource.request(.patch, json: [1, 2], contentType: "application/merge-patch+json")
        #expect(lastBody == "[1,2]")
        #expect(lastContentType == "application/merge-patch+json")
    }

    @Test("E18 a value that is not JSON fails at once with InvalidJSONObject, and nothing is sent")
    func invalidJSON() throws {
        let request = resource.request(.post, json: ["when": Date()] as [String: Any])
        #expect(request.state == .completed)
        #expect(request.completedResponse?.response.error?.cause is RequestError.Cause.InvalidJSONObject)
        #expect(harness.network.sent.isEmpty)
    }

    struct Post: Encodable {
        var title: String
        var url: String
        var score: Double
    }

    @Test("E18 an Encodable value is sent as compact JSON with sorted keys")
    func encodable() {
        resource.request(.post, json: Post(title: "Hi", url: "a/b", score: 1.5))
        #expect(lastBody == #"{"score":1.5,"title":"Hi","url":"a/b"}"#)
        #expect(lastContentType == "application/json")
    }

    @Test("E18 an Encodable value uses the given encoder, and fails at once when it cannot be encoded")
    func encodableWithEncoder() {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        struct Profile: Encodable { var firstName: String }
        resource.request(.put, json: Profile(firstName: "Ada"), encoder: encoder)
        #expect(lastBody == #"{"first_name":"Ada"}"#)

        let failed = resource.request(.post, json: Post(title: "x", url: "", score: .nan))
        #expect(failed.completedResponse?.response.error?.cause is RequestError.Cause.InvalidJSONObject)
        #expect(harness.network.sent.count == 1)
    }

    @Test("request(_:urlEncoded:) sends a sorted, escaped form")
    func urlEncoded() {
        resource.request(.post, urlEncoded: ["b": "x y+z", "a": "é&="])
        #expect(lastBody == "a=%C3%A9%26%3D&b=x%20y%2Bz")
        #expect(lastContentType == "application/x-www-form-urlencoded")
    }

    @Test("request(_:urlEncoded:) sorts the escaped pairs, as the original does: % sorts before letters")
    func urlEncodedSortsEscapedPairs() {
        resource.request(.post, urlEncoded: ["f••": "b r", "℥=&": "ℌℑ=&"])
        #expect(lastBody == "%E2%84%A5%3D%26=%E2%84%8C%E2%84%91%3D%26&f%E2%80%A2%E2%80%A2=b%20r")
        resource.request(.post, urlEncoded: ["a": "1", "a-b": "2"])
        #expect(lastBody == "a-b=2&a=1")  // "-" sorts before "=", as the pair strings compare
    }

    enum Layer: String, CaseIterable, Sendable {
        case configuredHeader, bodyHelper, adHocMutation, configuredMutator
    }

    @Test(
        "E20 Content-Type precedence: configured mutators > ad hoc mutation > body helper > configured headers",
        arguments: Layer.allCases)
    func contentTypePrecedence(top: Layer) {
        let layers = Layer.allCases.prefix { $0 != top } + [top]
        if layers.contains(.configuredHeader) {
            service.configure { $0.headers["Content-Type"] = "configured/header" }
        }
        if layers.contains(.configuredMutator) {
            service.configure {
                $0.mutateRequests { $0.setValue("configured/mutator", forHTTPHeaderField: "Content-Type") }
            }
        }
        let adHoc: Resource.RequestMutation = { $0.setValue("ad-hoc/mutation", forHTTPHeaderField: "Content-Type") }
        let noMutation: Resource.RequestMutation = { _ in }
        let mutation = layers.contains(.adHocMutation) ? adHoc : noMutation
        if layers.contains(.bodyHelper) {
            resource.request(.post, data: Data("x".utf8), contentType: "body/helper", requestMutation: mutation)
        } else {
            resource.request(.post, requestMutation: mutation)
        }
        let expected = [
            Layer.configuredHeader: "configured/header", .bodyHelper: "body/helper",
            .adHocMutation: "ad-hoc/mutation", .configuredMutator: "configured/mutator",
        ]
        #expect(lastContentType == expected[top])
    }
}
