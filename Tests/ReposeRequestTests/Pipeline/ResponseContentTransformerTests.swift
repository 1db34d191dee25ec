import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

private struct Oops: Error {}

@Suite("Content transformers")
struct ResponseContentTransformerTests {
    let data = Response.success(Entity<Any>(content: Data("42".utf8), contentType: "text/plain", timestamp: 1000))
    let text = Response.success(Entity<Any>(content: "42", contentType: "text/plain", timestamp: 1000))
    let number = Response.success(Entity<Any>(content: 42, contentType: "text/plain", timestamp: 1000))

    func parseInt(_ action: InputTypeMismatchAction = .error) -> ResponseContentTransformer<String, Int> {
        ResponseContentTransformer(onInputTypeMismatch: action) { Int($0.content) }
    }

    @Test("the closure maps the content and the entity keeps its metadata")
    func mapsContent() throws {
        var entity = Entity<Any>(
            content: "7", contentType: "text/x-number; charset=utf-8", headers: ["X-Count": "1"], timestamp: 12)
        entity.setHeader("yes", forKey: "X-Seen")
        let result = try parseInt().process(.success(entity)).get()
        #expect(result.content as? Int == 7)
        #expect(result.contentType == "text/x-number; charset=utf-8" && result.charset == "utf-8")
        #expect(result.header(forKey: "x-count") == "1" && result.header(forKey: "x-seen") == "yes")
        #expect(result.timestamp == 12)
    }

    @Test("F16 by default other input types fail with WrongInputTypeInTranformerPipeline naming both types")
    func mismatchIsError() throws {
        let error = try #require(parseInt().process(data).error)
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.WrongInputTypeInTranformerPipeline)
        #expect(cause.expectedType is String.Type)
        #expect(cause.actualType is Data.Type)
        #expect(error.entity?.content as? Data == Data("42".utf8))
    }

    @Test("F16 skip passes content of another type through unchanged")
    func mismatchSkip() {
        #expect(parseInt(.skip).process(data).entity?.content as? Data == Data("42".utf8))
        #expect(parseInt(.skip).process(text).entity?.content as? Int == 42)
    }

    @Test("F16 skipIfOutputTypeMatches passes only content that already has the output type")
    func mismatchSkipIfOutputMatches() {
        #expect(parseInt(.skipIfOutputTypeMatches).process(number).entity?.content as? Int == 42)
        let error = parseInt(.skipIfOutputTypeMatches).process(data).error
        #expect(error?.cause is RequestError.Cause.WrongInputTypeInTranformerPipeline)
    }

    @Test("F20 returning nil fails with TransformerReturnedNil")
    func nilResult() throws {
        let notANumber = Response.success(Entity<Any>(content: "x", contentType: "text/plain", timestamp: 0))
        let error = try #require(parseInt().process(notANumber).error)
        #expect(error.userMessage == "Cannot parse server response")
        #expect(error.cause is RequestError.Cause.TransformerReturnedNil)
    }

    @Test("F17 a thrown error that is not a RequestError becomes the cause")
    func thrownErrorBecomesCause() throws {
        let failing = ResponseContentTransformer<String, Int> { _ in throw Oops() }
        let error = try #require(failing.process(text).error)
        #expect(error.cause is Oops)
        #expect(error.userMessage == "Cannot parse server response")
    }

    @Test("F17 a thrown RequestError is used as it is")
    func thrownRequestErrorAsIs() throws {
        let failing = ResponseContentTransformer<String, Int> { _ in
            throw RequestError(userMessage: "No.", cause: Oops(), httpStatusCode: 418, timestamp: 5)
        }
        let error = try #require(failing.process(text).error)
        #expect(error.userMessage == "No.")
        #expect(error.httpStatusCode == 418 && error.timestamp == 5)
        #expect(error.cause is Oops)
        #expect(error.entity == nil)
    }

    @Test("F15 error bodies are untouched unless transformErrors is set")
    func errorBodies() {
        let body = Entity<Any>(content: "9", contentType: "text/plain", timestamp: 0)
        let failure = Response.failure(RequestError(httpStatusCode: 500, entity: body))
        #expect(parseInt().process(failure).error?.entity?.content as? String == "9")
        let transforming = ResponseContentTransformer<String, Int>(transformErrors: true) { Int($0.content) }
        let transformed = transforming.process(failure).error
        #expect(transformed?.entity?.content as? Int == 9)
        #expect(transformed?.httpStatusCode == 500)
    }

    @Test("F10 an error body that fails to transform keeps the original error and body")
    func failedErrorBodyKeepsError() {
        let body = Entity<Any>(content: "not a number", contentType: "text/plain", timestamp: 0)
        let failure = Response.failure(RequestError(httpStatusCode: 500, entity: body))
        let transforming = ResponseContentTransformer<String, Int>(transformErrors: true) { Int($0.content) }
        let error = transforming.process(failure).error
        #expect(error?.userMessage == "Internal server error")
        #expect(error?.httpStatusCode == 500)
        #expect(error?.cause == nil)
        #expect(error?.entity?.content as? String == "not a number")
    }

    @Test("a failure without a body passes through even with transformErrors")
    func bodilessFailure() {
        let transforming = ResponseContentTransformer<String, Int>(transformErrors: true) { Int($0.content) }
        let failure = Response.failure(RequestError(userMessage: "offline", cause: Oops()))
        #expect(transforming.process(failure).error?.userMessage == "offline")
    }

    @Test("the description names the types unless one is given")
    func descriptions() {
        #expect(parseInt().description == "String → Int")
        #expect(ResponseContentTransformer<Data, Data>(description: "gunzip") { $0.content }.description == "gunzip")
    }
}
