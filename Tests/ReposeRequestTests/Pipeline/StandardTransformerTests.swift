import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Standard text and JSON transformers", .checksLifetimes)
struct StandardTransformerTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    /// Loads `resource` with a response made of raw bytes.
    func load(status: Int = 200, contentType: String, bytes: [UInt8]) async {
        let request = resource.load()
        await harness.network.respond(status: status, headers: ["Content-Type": contentType], body: Data(bytes))
        await _ = request.responseInfo
    }

    @Test("F1 text/* responses become String", arguments: ["text/plain", "text/html", "TEXT/CSV; charset=utf-8"])
    func textBecomesString(contentType: String) async {
        await harness.answer(resource.load(), contentType: contentType, text: "hello")
        #expect(resource.latestData?.content as? String == "hello")
        #expect(resource.text == "hello")
    }

    @Test("F2 text without a charset is read as ISO-8859-1")
    func latin1ByDefault() async {
        await harness.answer(resource.load(), contentType: "text/plain", text: "ý")
        #expect(resource.text == "Ã½")
    }

    @Test("F2 the charset of the content type is honoured, IANA names such as EUC-JP included")
    func charsetHonoured() async {
        await harness.answer(resource.load(), contentType: "text/plain; charset=utf-8", text: "ý")
        #expect(resource.text == "ý")
        await load(contentType: "text/plain; format=flowed; charset=EUC-JP", bytes: [0xC6, 0xFC, 0xCB, 0xDC])
        #expect(resource.text == "日本")
    }

    @Test("F3 an unknown charset fails with InvalidTextEncoding")
    func unknownCharset() async throws {
        await harness.answer(resource.load(), contentType: "text/plain; charset=x-klingon", text: "Qapla'")
        let error = try #require(resource.latestError)
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.InvalidTextEncoding)
        #expect(cause.encodingName == "x-klingon")
        #expect(error.entity?.content as? Data == Data("Qapla'".utf8))
    }

    @Test("F3 bytes invalid in the charset fail with UndecodableText")
    func undecodableText() async throws {
        await load(contentType: "text/plain; charset=utf-8", bytes: [0x61, 0xC3, 0x28])
        let cause = try #require(resource.latestError?.cause as? RequestError.Cause.UndecodableText)
        #expect(cause.encoding == .utf8)
        #expect(resource.latestData == nil)
    }

    @Test("F4 text that an earlier stage already made a String fails with a wrong input type")
    func textAfterString() async throws {
        harness.service.configure {
            $0.pipeline[.rawData].add(ResponseContentTransformer<Data, String> { _ in "early" })
        }
        await harness.answer(resource.load(), contentType: "text/plain", text: "late")
        let cause = try #require(
            resource.latestError?.cause as? RequestError.Cause.WrongInputTypeInTranformerPipeline)
        #expect(cause.expectedType is Data.Type)
        #expect(cause.actualType is String.Type)
    }

    @Test("F5 error bodies are decoded too, e.g. UTF-16 text from a 500")
    func errorBodyText() async throws {
        let body = try #require("Oh no: ý".data(using: .utf16))
        await load(status: 500, contentType: "text/plain; charset=utf-16", bytes: Array(body))
        #expect(resource.latestError?.httpStatusCode == 500)
        #expect(resource.latestError?.text == "Oh no: ý")
    }

    @Test("F6 other types stay Data and .text is empty for them and for absent content")
    func nonTextStaysData() async {
        #expect(resource.text == "")
        await load(contentType: "application/octet-stream", bytes: [0, 1, 2])
        #expect(resource.latestData?.content as? Data == Data([0, 1, 2]))
        #expect(resource.text == "")
        await load(contentType: "image/png", bytes: [0x89])
        #expect(resource.text == "")
    }

    @Test(
        "F7 JSON is parsed for application/json, application/*+json and */json",
        arguments: [
            "application/json", "application/hal+json", "application/vnd.zingle+json; charset=utf-8", "foo/json",
        ])
    func jsonTypes(contentType: String) async {
        await harness.answer(resource.load(), contentType: contentType, text: #"{"name": "Zoe"}"#)
        #expect(resource.jsonDict["name"] as? String == "Zoe")
    }

    @Test("F7 a JSON array becomes an array, and JSON text sent as text/plain stays a String")
    func jsonArrayAndPlainText() async {
        await harness.answer(resource.load(), contentType: "application/json", text: "[1, 2, 3]")
        #expect(resource.jsonArray.count == 3)
        await harness.answer(resource.load(), contentType: "text/plain", text: "[1, 2, 3]")
        #expect(resource.text == "[1, 2, 3]")
        #expect(resource.jsonArray.isEmpty)
    }

    @Test("text/json is decoded as text first and then still parsed as JSON")
    func textJSON() async {
        await harness.answer(resource.load(), contentType: "text/json; charset=utf-8", text: #"{"a": "ý"}"#)
        #expect(resource.jsonDict["a"] as? String == "ý")
    }

    @Test("F8 malformed JSON fails with Cannot parse server response and the parser's error as cause")
    func malformedJSON() async throws {
        await harness.answer(resource.load(), contentType: "application/json", text: #"{"a": "#)
        let error = try #require(resource.latestError)
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause)
        #expect(!(cause is RequestError))
        #expect((cause as NSError).domain == NSCocoaErrorDomain)
        #expect(error.entity?.content as? Data == Data(#"{"a": "#.utf8))
    }

    @Test("F9 top-level scalars fail with JSONResponseIsNotDictionaryOrArray", arguments: ["17", "\"foo\"", "null"])
    func scalars(text: String) async {
        await harness.answer(resource.load(), contentType: "application/json", text: text)
        #expect(resource.latestError?.cause is RequestError.Cause.JSONResponseIsNotDictionaryOrArray)
        #expect(resource.latestData == nil)
    }

    @Test("F9 replacing the parsing stage with a custom parser can accept scalars")
    func customParserAcceptsScalars() async {
        harness.service.configure {
            $0.pipeline[.parsing].removeTransformers()
            $0.pipeline[.parsing].add(
                ResponseContentTransformer<Data, Any> {
                    try JSONSerialization.jsonObject(with: $0.content, options: .fragmentsAllowed)
                },
                contentTypes: ["*/json"])
        }
        await harness.answer(resource.load(), contentType: "application/json", text: "\"foo\"")
        #expect(resource.latestError == nil)
        #expect(resource.text == "foo")
    }

    @Test("F10 JSON error bodies are parsed into latestError.jsonDict")
    func jsonErrorBody() async {
        await harness.answer(resource.load(), status: 422, contentType: "application/json", text: #"{"error": "bad"}"#)
        #expect(resource.latestError?.httpStatusCode == 422)
        #expect(resource.latestError?.jsonDict["error"] as? String == "bad")
    }

    @Test("F10 an unparsable JSON error body keeps the HTTP error with the raw Data as content")
    func unparsableErrorBody() async throws {
        await harness.answer(resource.load(), status: 500, contentType: "application/json", text: "<html>oops")
        let error = try #require(resource.latestError)
        #expect(error.userMessage == "Internal server error")
        #expect(error.httpStatusCode == 500)
        #expect(error.cause == nil)
        #expect(error.entity?.content as? Data == Data("<html>oops".utf8))
        #expect(error.jsonDict.isEmpty)
    }

    @Test("F11 jsonDict and jsonArray are empty when content is absent or has another shape")
    func emptyAccessors() async {
        #expect(resource.jsonDict.isEmpty && resource.jsonArray.isEmpty)
        await harness.answer(resource.load(), contentType: "application/json", text: "[1]")
        #expect(resource.jsonDict.isEmpty)
        await harness.answer(resource.load(), contentType: "application/json", text: #"{"a": 1}"#)
        #expect(resource.jsonArray.isEmpty)
        #expect(resource.latestError?.jsonDict.isEmpty ?? true)
    }

    @Test("a service created without standard transformers leaves bodies as Data")
    func noStandardTransformers() async {
        let service = Service(
            baseURL: "https://zingle.frotz/v1",
            options: .init(standardTransformers: [], networking: harness.network, scheduler: harness.scheduler))
        LifetimeCheck.track(service)
        let resource = service.resource("/plain")
        await harness.answer(resource.load(), contentType: "application/json", text: "{}")
        #expect(resource.latestData?.content as? Data == Data("{}".utf8))
    }

    @Test("choosing only JSON leaves text as Data")
    func jsonOnly() async {
        let service = Service(
            baseURL: "https://zingle.frotz/v1",
            options: .init(
                standardTransformers: [.json, .json], networking: harness.network, scheduler: harness.scheduler))
        LifetimeCheck.track(service)
        let plain = service.resource("/plain")
        await harness.answer(plain.load(), contentType: "text/plain", text: "hi")
        #expect(plain.latestData?.content as? Data == Data("hi".utf8))
        let json = service.resource("/json")
        await harness.answer(json.load(), contentType: "application/json", text: "[true]")
        #expect(json.jsonArray.count == 1)
    }

    @Test("G7 clearing the pipeline leaves raw Data even for text and JSON")
    func clearedPipeline() async {
        harness.service.configure { $0.pipeline.clear() }
        await harness.answer(resource.load(), contentType: "application/json", text: "{}")
        #expect(resource.latestData?.content as? Data == Data("{}".utf8))
    }
}

#if canImport(UIKit) || canImport(AppKit)
@MainActor
@Suite("Standard image transformer", .checksLifetimes)
struct ImageTransformerTests {
    let harness = Harness()

    @Test("F12 image bodies the platform cannot read fail with TransformerReturnedNil")
    func unreadableImage() async {
        #expect(StandardTransformer.defaults.contains(.image))
        let resource = harness.service.resource("/logo")
        let request = resource.load()
        harness.network.respond(headers: ["Content-Type": "image/png"], body: Data([0x89, 0x50]))
        await _ = request.responseInfo
        #expect(resource.latestError?.cause is RequestError.Cause.TransformerReturnedNil)
    }
}
#endif
