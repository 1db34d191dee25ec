import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

private struct Profile: Equatable {
    let name: String
}

private func profile(_ entity: Entity<[String: Any]>) -> Profile? {
    (entity.content["name"] as? String).map(Profile.init)
}

@MainActor
@Suite("Custom transformers through the service", .checksLifetimes)
struct ConfigureTransformerTests {
    let harness = Harness()
    var service: Service { harness.service }

    @Test("F14 a custom transformer sees each response once, success or failure, and not again for 304")
    func seenOncePerResponse() async {
        let recorder = RecordingTransformer()
        service.configure { $0.pipeline[.cleanup].add(recorder) }
        let resource = service.resource("/a")
        let observers = [RecordingObserver(), RecordingObserver()]
        for observer in observers { resource.addObserver(observer) }
        await harness.answer(resource.load(), text: "one", headers: ["ETag": "v1"])
        await harness.answer(resource.load(), status: 304)
        await harness.answer(resource.load(), status: 500, text: "down")
        #expect(recorder.seen == ["success", "failure 500"])
        let events = [
            "observerAdded", "requested", "newData(network)", "requested", "notModified", "requested", "error",
        ]
        #expect(observers.map(\.events) == [events, events])
        #expect(resource.latestData?.content as? String == "one")
    }

    @Test("F14 a custom transformer can rewrite content, error messages and headers")
    func rewrites() async {
        service.configure {
            $0.pipeline[.cleanup].add(
                RecordingTransformer { response in
                    switch response {
                    case .success(var entity):
                        entity.setHeader("rewritten", forKey: "X-Note")
                        entity.content = "[\(entity.content)]"
                        return .success(entity)
                    case .failure(var error):
                        error.userMessage = "Try again later"
                        return .failure(error)
                    }
                })
        }
        let resource = service.resource("/a")
        await harness.answer(resource.load(), text: "hi", headers: ["X-Note": "original"])
        #expect(resource.text == "[hi]")
        #expect(resource.latestData?.header(forKey: "x-note") == "rewritten")
        await harness.answer(resource.load(), status: 503)
        #expect(resource.latestError?.userMessage == "Try again later")
        #expect(resource.latestError?.httpStatusCode == 503)
    }

    @Test(
        "U6 a body up to the size limit is parsed on the main actor as it is delivered, a larger one on a queue of its own first",
        arguments: [
            (ResponseProcessor.mainQueueBodyLimit, true), (ResponseProcessor.mainQueueBodyLimit + 1, false),
        ])
    func parsedOnMainOnlyWhenSmall(size: Int, parsedOnMain: Bool) async {
        let recorder = RecordingTransformer()
        service.configure { $0.pipeline[.model].add(recorder) }
        let resource = service.resource("/a")
        let request = resource.load()
        await harness.network.respond(contentType: "text/plain", text: String(repeating: "x", count: size))
        await _ = request.responseInfo
        #expect(recorder.ranOnMainQueue == [parsedOnMain])
        #expect(resource.text.count == size)
    }

    @Test("F15 configureTransformer maps content to models for matching resources only")
    func mapsToModels() async {
        service.configureTransformer("/users/*", contentTransform: profile)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: #"{"name": "Zoe"}"#)
        #expect(user.typedContent() == Profile(name: "Zoe"))
        let other = service.resource("/teams/1")
        await harness.answer(other.load(), contentType: "application/json", text: #"{"name": "Red"}"#)
        #expect(other.jsonDict["name"] as? String == "Red")
    }

    @Test("F15 error responses are untouched unless transformErrors is true")
    func errorsUntouchedByDefault() async {
        service.configureTransformer("/users/*", contentTransform: profile)
        service.configureTransformer("/admins/*", transformErrors: true, contentTransform: profile)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), status: 404, contentType: "application/json", text: #"{"name": "?"}"#)
        #expect(user.latestError?.jsonDict["name"] as? String == "?")
        let admin = service.resource("/admins/1")
        await harness.answer(admin.load(), status: 404, contentType: "application/json", text: #"{"name": "!"}"#)
        #expect(admin.latestError?.typedContent() == Profile(name: "!"))
        #expect(admin.latestError?.httpStatusCode == 404)
    }

    @Test("F16 the mismatch action applies to content the closure cannot take")
    func mismatchThroughService() async {
        service.configureTransformer("/strict", contentTransform: profile)
        service.configureTransformer("/lenient", onInputTypeMismatch: .skip, contentTransform: profile)
        let strict = service.resource("/strict")
        await harness.answer(strict.load(), contentType: "text/plain", text: "plain")
        #expect(strict.latestError?.cause is RequestError.Cause.WrongInputTypeInTranformerPipeline)
        let lenient = service.resource("/lenient")
        await harness.answer(lenient.load(), contentType: "text/plain", text: "plain")
        #expect(lenient.text == "plain")
    }

    @Test("F18 a second configureTransformer on the same stage replaces the first unless appending")
    func replaceOrAppend() async {
        service.configureTransformer("/a") { (entity: Entity<String>) in entity.content + "1" }
        service.configureTransformer("/a") { (entity: Entity<String>) in entity.content + "2" }
        service.configureTransformer("/b") { (entity: Entity<String>) in entity.content + "1" }
        service.configureTransformer("/b", action: .appendToExisting) { (entity: Entity<String>) in
            entity.content + "2"
        }
        let replaced = service.resource("/a")
        await harness.answer(replaced.load(), text: "x")
        #expect(replaced.text == "x2")
        let appended = service.resource("/b")
        await harness.answer(appended.load(), text: "x")
        #expect(appended.text == "x12")
    }

    @Test("F18 a transformer at another stage, or for all resources, leaves the standard parsers in place")
    func otherStages() async {
        service.configureTransformer(atStage: .cleanup) { (entity: Entity<[String: Any]>) in entity.content.count }
        let resource = service.resource("/counted")
        await harness.answer(resource.load(), contentType: "application/json", text: #"{"a": 1, "b": 2}"#)
        #expect(resource.typedContent() == 2)
    }

    @Test("F20 a closure returning nil fails the load with TransformerReturnedNil")
    func nilFails() async {
        service.configureTransformer("/users/*", contentTransform: profile)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: #"{"nom": "Zoe"}"#)
        #expect(user.latestError?.cause is RequestError.Cause.TransformerReturnedNil)
        #expect(user.latestError?.userMessage == "Cannot parse server response")
    }

    @Test("the configuration only applies to the request methods given")
    func requestMethods() async {
        service.configureTransformer("/a", requestMethods: [.post]) { (entity: Entity<String>) in entity.content + "!" }
        let resource = service.resource("/a")
        await harness.answer(resource.load(), text: "get")
        #expect(resource.text == "get")
        await harness.answer(resource.load(using: resource.request(.post)), text: "post")
        #expect(resource.text == "post!")
    }
}
