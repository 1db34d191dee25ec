import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

private struct User: Decodable, Equatable {
    let name: String
    let email: String
}

private struct Team: Decodable {
    let users: [User]
}

private struct Account: Decodable, Equatable {
    let fullName: String
}

@MainActor
@Suite("Decodable models", .checksLifetimes)
struct ModelDecodingTests {
    let harness = Harness()
    var service: Service { harness.service }

    @Test("a Decodable model is decoded straight from the response for matching resources")
    func decodesModel() async {
        service.configureTransformer("/users/*", decoding: User.self)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: #"{"name": "Zoe", "email": "z@f"}"#)
        #expect(user.typedContent() == User(name: "Zoe", email: "z@f"))
        let other = service.resource("/teams/1")
        await harness.answer(other.load(), contentType: "application/json", text: #"{"name": "Red"}"#)
        #expect(other.jsonDict["name"] as? String == "Red")
    }

    @Test("the JSON dictionary parse does not run for decoded successes, but still parses their error bodies")
    func noDictionaryParse() async {
        let parsingSpy = RecordingTransformer()
        service.configure { $0.pipeline[.parsing].add(parsingSpy) }
        service.configureTransformer("/users/*", decoding: User.self)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: #"{"name": "Zoe", "email": "z@f"}"#)
        #expect(parsingSpy.seen.isEmpty)
        await harness.answer(user.load(), status: 422, contentType: "application/json", text: #"{"error": "taken"}"#)
        #expect(parsingSpy.seen == ["failure 422"])
        #expect(user.latestError?.jsonDict["error"] as? String == "taken")
        #expect(user.typedContent() == User(name: "Zoe", email: "z@f"))
    }

    @Test("a failure names the model type and the coding path, with a message fit for display")
    func codingPathOfMissingKey() async throws {
        service.configureTransformer("/team", decoding: Team.self)
        let team = service.resource("/team")
        let body = #"{"users": [{"name": "a", "email": "a@f"}, {"name": "b", "email": "b@f"}, {"name": "c"}]}"#
        await harness.answer(team.load(), contentType: "application/json", text: body)
        let error = try #require(team.latestError)
        #expect(error.userMessage == "Cannot parse server response")
        let cause = try #require(error.cause as? RequestError.Cause.ModelDecodingFailed)
        #expect(cause.modelType is Team.Type)
        #expect(cause.codingPath == "users[2].email")
        #expect(cause.underlying is DecodingError)
        #expect(team.latestData == nil)
    }

    @Test("a value of the wrong type is reported at its own path")
    func codingPathOfTypeMismatch() async throws {
        service.configureTransformer("/team", decoding: Team.self)
        let team = service.resource("/team")
        await harness.answer(team.load(), contentType: "application/json", text: #"{"users": [{"name": 5}]}"#)
        let cause = try #require(team.latestError?.cause as? RequestError.Cause.ModelDecodingFailed)
        #expect(cause.codingPath == "users[0].name")
    }

    @Test("malformed JSON fails with ModelDecodingFailed at the top level")
    func malformed() async throws {
        service.configureTransformer("/users/*", decoding: User.self)
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: "{")
        let cause = try #require(user.latestError?.cause as? RequestError.Cause.ModelDecodingFailed)
        #expect(cause.codingPath == "")
        #expect(user.latestError?.entity?.content as? Data == Data("{".utf8))
    }

    @Test("a custom decoder is used, e.g. for snake-case keys")
    func customDecoder() async {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        service.configureTransformer(decoding: Account.self, decoder: decoder)
        let account = service.resource("/me")
        await harness.answer(account.load(), contentType: "application/json", text: #"{"full_name": "Zoe Q"}"#)
        #expect(account.typedContent() == Account(fullName: "Zoe Q"))
    }

    @Test("the model stage receives the decoded model and can map it further")
    func modelStageAfterDecoding() async {
        service.configureTransformer("/users/*", decoding: User.self)
        service.configureTransformer("/users/*") { (entity: Entity<User>) in entity.content.name.uppercased() }
        let user = service.resource("/users/1")
        await harness.answer(user.load(), contentType: "application/json", text: #"{"name": "Zoe", "email": "z@f"}"#)
        #expect(user.text == "ZOE")
    }

    @Test("content that is already the model passes through; other content is a wrong input type")
    func passThrough() throws {
        let transformer = ModelDecodingTransformer<User>(decoder: JSONDecoder(), errorBodies: PipelineStage())
        let model = User(name: "a", email: "b")
        let already = transformer.process(.success(Entity<Any>(content: model, contentType: "x/y", timestamp: 0)))
        #expect(already.entity?.content as? User == model)
        let number = transformer.process(.success(Entity<Any>(content: 3, contentType: "x/y", timestamp: 0)))
        #expect(number.error?.cause is RequestError.Cause.WrongInputTypeInTranformerPipeline)
    }

    @Test(
        "coding paths read as keys joined by dots with indices in brackets",
        arguments: [
            (["users", 2, "email"], "users[2].email"), ([0, "a"], "[0].a"), (["a", "b"], "a.b"), ([], ""),
        ] as [([PathKey], String)])
    func pathFormatting(path: [PathKey], expected: String) {
        #expect(ModelDecodingTransformer<User>.format(path) == expected)
    }
}

/// A coding key written as a string or integer literal, for path formatting tables.
struct PathKey: CodingKey, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(stringLiteral value: String) { self.init(stringValue: value) }
    init(integerLiteral value: Int) { self.init(intValue: value) }
}
