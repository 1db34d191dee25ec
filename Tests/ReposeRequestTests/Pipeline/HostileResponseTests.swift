import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// A response a server should not send, and what a user is to see when one arrives anyway.
struct HostileResponse: Sendable, CustomTestStringConvertible {
    let name: String
    let contentType: String
    let body: Data

    var testDescription: String { name }

    // Computed, not stored: a global Data in an enum payload is invisible to LeakSanitizer at exit.
    static var all: [HostileResponse] {
        [
            HostileResponse(name: "truncated JSON", contentType: "application/json", body: Data(#"{"a": [1, 2"#.utf8)),
            HostileResponse(
                name: "100,000-deep JSON arrays", contentType: "application/json",
                body: Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
            HostileResponse(
                name: "100,000-deep JSON objects", contentType: "application/json",
                body: Data((String(repeating: #"{"a":"#, count: 100_000) + String(repeating: "}", count: 100_000)).utf8)
            ),
            HostileResponse(
                name: "invalid UTF-8 labelled UTF-8", contentType: "text/plain; charset=utf-8",
                body: Data([0x68, 0x69, 0xC3, 0x28, 0xFF])),
            HostileResponse(
                name: "an unknown charset", contentType: "text/plain; charset=x-klingon", body: Data("qapla'".utf8)),
            HostileResponse(
                name: "UTF-8 labelled UTF-16 (an odd number of bytes)", contentType: "text/plain; charset=utf-16",
                body: Data("hello".utf8)),
            HostileResponse(
                name: "HTML labelled JSON", contentType: "application/json",
                body: Data("<html><body>Bad gateway</body></html>".utf8)),
            HostileResponse(name: "a JSON scalar", contentType: "application/json", body: Data("17".utf8)),
        ]
    }
}

@MainActor
@Suite("Hostile responses: bad content never crashes and never costs earlier data", .checksLifetimes)
struct HostileResponseTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/hostile") }

    /// Loads good text, then answers the next load with `contentType` and `body`; returns the observer's events
    /// from the second load on.
    private func loadGoodThenBad(contentType: String, body: Data) async -> [String] {
        await harness.answer(resource.load(), text: "good")
        let observer = RecordingObserver()
        resource.addObserver(observer)
        let request = resource.load()
        await harness.network.respond(status: 200, headers: ["Content-Type": contentType], body: body)
        _ = await request.responseInfo
        return Array(observer.events.dropFirst())
    }

    private func expectFailureKeepingData(_ events: [String], _ what: String) {
        #expect(events == ["requested", "error"], "\(what): \(events)")
        #expect(resource.text == "good", "\(what): the earlier data was lost")
        let message = resource.latestError?.userMessage ?? ""
        #expect(!message.isEmpty && !message.contains("Error Domain"), "\(what): \(message)")
        #expect(!resource.isLoading)
    }

    @Test(
        "F3 F8 F9 a malformed, mislabelled or undecodable body fails the load with a message fit for display",
        arguments: HostileResponse.all)
    func hostileBodies(response: HostileResponse) async {
        let events = await loadGoodThenBad(contentType: response.contentType, body: response.body)
        expectFailureKeepingData(events, response.name)
    }

    @Test(
        "F17 a transformer that throws a RequestError, or any other error, fails the load with it",
        arguments: [true, false])
    func throwingTransformer(throwsRequestError: Bool) async {
        harness.service.configureTransformer("/hostile") { (_: Entity<String>) -> String in
            if throwsRequestError {
                throw RequestError(userMessage: "The profile is incomplete.", cause: nil)
            }
            throw CocoaError(.coderValueNotFound)
        }
        let events = await loadGoodThenBadText()
        #expect(events == ["requested", "error"])
        #expect(resource.latestData?.content as? String == "good")
        if throwsRequestError {
            #expect(resource.latestError?.userMessage == "The profile is incomplete.")
        } else {
            #expect(resource.latestError?.cause is CocoaError)
            #expect(resource.latestError?.userMessage.isEmpty == false)
        }
    }

    @Test("F20 a transformer that returns nil fails the load with TransformerReturnedNil")
    func nilTransformer() async {
        harness.service.configureTransformer("/hostile") { (_: Entity<String>) -> String? in nil }
        let events = await loadGoodThenBadText()
        #expect(events == ["requested", "error"])
        #expect(resource.latestError?.cause is RequestError.Cause.TransformerReturnedNil)
        #expect(resource.latestError?.userMessage.isEmpty == false)
    }

    struct Profile: Decodable {
        let name: String
        let age: Int
    }

    @Test(
        "F15 a model that does not decode (a wrong type, a missing key) fails the load and keeps earlier data",
        arguments: [#"{"name": "Ada", "age": "old"}"#, #"{"name": "Ada"}"#, #"[1, 2]"#])
    func undecodableModel(json: String) async {
        harness.service.configureTransformer("/hostile", decoding: Profile.self)
        await harness.answer(resource.load(), contentType: "application/json", text: #"{"name": "Ada", "age": 36}"#)
        let good = resource.latestData?.content as? Profile
        #expect(good?.age == 36)
        let request = resource.load()
        await harness.answer(request, contentType: "application/json", text: json)
        #expect((resource.latestData?.content as? Profile)?.age == 36)
        #expect(resource.latestError?.userMessage.isEmpty == false)
        #expect(resource.latestError?.cause is RequestError.Cause.ModelDecodingFailed)
    }

    /// The text variant: good text, then other text that the configured transformer fails on.
    private func loadGoodThenBadText() async -> [String] {
        // The first load's transformer already runs, so "good" is made by a pass-through on the first call.
        let observer = RecordingObserver()
        resource.overrideLocalData(with: Entity<Any>(content: "good", contentType: "text/plain"))
        resource.addObserver(observer)
        let request = resource.load()
        await harness.network.respond(status: 200, contentType: "text/plain", text: "bad")
        _ = await request.responseInfo
        return Array(observer.events.dropFirst())
    }
}
