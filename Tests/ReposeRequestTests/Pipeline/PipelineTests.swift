import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Appends a fixed suffix to string content, so a test can read which transformers ran and in which order.
struct AppendingTransformer: ResponseTransformer {
    let suffix: String

    func process(_ response: Response) -> Response {
        guard case .success(let entity) = response else { return response }
        let text = entity.content as? String ?? ""
        return .success(entity.withContent(text + suffix))
    }
}

/// A pipeline in which every stage appends its three-letter name, as in the original library's pipeline tests.
func namedStagesPipeline() -> Pipeline {
    var pipeline = Pipeline()
    for key in [PipelineStageKey.rawData, .decoding, .parsing, .model, .cleanup] {
        pipeline[key].add(AppendingTransformer(suffix: String(key.name.prefix(3))))
    }
    return pipeline
}

func textResponse(_ content: Any = "", contentType: String = "text/plain") -> Response {
    .success(Entity<Any>(content: content, contentType: contentType, timestamp: 1000))
}

@Suite("Pipeline stages and order")
struct PipelineTests {
    @Test("stages run in the default order: raw data, decoding, parsing, model, cleanup")
    func defaultOrder() {
        let result = namedStagesPipeline().process(textResponse())
        #expect(result.entity?.content as? String == "rawdecparmodcle")
    }

    @Test("G2 changing order reorders stages that already have transformers")
    func reorder() {
        var pipeline = namedStagesPipeline()
        pipeline.order = [.parsing, .cleanup, .model, .decoding]
        #expect(pipeline.process(textResponse()).entity?.content as? String == "parclemoddec")
    }

    @Test("G3 stages missing from order are skipped, custom ones included until they are listed")
    func missingStagesSkipped() {
        var pipeline = namedStagesPipeline()
        pipeline[PipelineStageKey("custom")].add(AppendingTransformer(suffix: "cus"))
        pipeline.order = [.model, .rawData]
        #expect(pipeline.process(textResponse()).entity?.content as? String == "modraw")
        pipeline.order.insert(PipelineStageKey("custom"), at: 1)
        #expect(pipeline.process(textResponse()).entity?.content as? String == "modcusraw")
    }

    @Test("G5 transformers within a stage run in insertion order")
    func insertionOrder() {
        var pipeline = Pipeline()
        for suffix in ["a", "b", "c"] {
            pipeline[.model].add(AppendingTransformer(suffix: suffix))
        }
        pipeline[.decoding].add(AppendingTransformer(suffix: "0"))
        #expect(pipeline.process(textResponse()).entity?.content as? String == "0abc")
    }

    @Test("G6 removeTransformers then add replaces a stage's transformers and leaves the others")
    func replaceStage() {
        var pipeline = namedStagesPipeline()
        pipeline[.parsing].removeTransformers()
        #expect(pipeline[.parsing].isEmpty)
        pipeline[.parsing].add(AppendingTransformer(suffix: "PAR"))
        #expect(pipeline.process(textResponse()).entity?.content as? String == "rawdecPARmodcle")
    }

    @Test("G7 clear removes every transformer and keeps the order")
    func clear() {
        var pipeline = namedStagesPipeline()
        pipeline.order = [.cleanup, .rawData]
        pipeline.clear()
        let raw = Data("raw".utf8)
        #expect(pipeline.process(textResponse(raw)).entity?.content as? Data == raw)
        #expect(pipeline.order == [.cleanup, .rawData])
    }

    @Test("a transformer added with content types only sees matching responses, errors by their body's type")
    func contentTypeFilter() {
        var pipeline = Pipeline()
        pipeline[.parsing].add(AppendingTransformer(suffix: "!"), contentTypes: ["text/*", "*/*+json"])
        #expect(pipeline.process(textResponse("a", contentType: "text/html")).entity?.content as? String == "a!")
        #expect(
            pipeline.process(textResponse("b", contentType: "application/hal+json; charset=utf-8")).entity?.content
                as? String == "b!")
        #expect(pipeline.process(textResponse("c", contentType: "application/json")).entity?.content as? String == "c")
        let bodiless = Response.failure(RequestError(userMessage: "no body", cause: nil))
        #expect(pipeline.process(bodiless).error?.userMessage == "no body")
    }

}
