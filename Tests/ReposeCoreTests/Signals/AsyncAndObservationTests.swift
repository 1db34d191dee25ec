import Foundation
import Observation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("async/await and Observation", .checksLifetimes)
struct AsyncAndObservationTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    @Test("await request.response, entity and content(as:)")
    func awaitingRequests() async throws {
        let request = resource.load()
        await harness.network.respond(
            status: 200, headers: ["Content-Type": "application/x-bytes"], body: Data([1, 2]))
        let response = await request.response
        #expect(response.entity != nil)
        let entity = try await request.entity
        #expect(entity.contentType == "application/x-bytes")
        let data = try await request.content(as: Data.self)
        #expect(data == Data([1, 2]))
        await #expect(throws: RequestError.self) { try await request.content(as: Int.self) }
    }

    @Test("T12 a model read with content(as:) without its transformer: the message names the expected and actual type")
    func modelWithoutTransformer() async throws {
        struct Profile: Decodable { var name: String }
        let request = resource.load()
        await harness.network.respond(status: 200, contentType: "application/json", text: #"{"name": "Ada"}"#)
        do {
            _ = try await request.content(as: Profile.self)
            Issue.record("a dictionary was read as a Profile")
        } catch {
            #expect(error.cause is RequestError.Cause.WrongInputTypeInTranformerPipeline)
            #expect(
                error.userMessage == "Cannot parse server response (expected Profile, got Dictionary<String, Any>)")
        }
    }

    @Test("a failed request throws its RequestError")
    func awaitingFailure() async {
        let request = resource.load()
        await harness.network.respond(status: 404)
        do {
            _ = try await request.entity
            Issue.record("expected a failure")
        } catch {
            #expect(error.httpStatusCode == 404)
        }
    }

    @Test("cancelling the awaiting task cancels the request")
    func taskCancellation() async {
        let request = resource.load()
        let task = Task { await request.response.isCancellation }
        await Task.yield()
        task.cancel()
        #expect(await task.value)
        #expect(harness.network.cancelledCount == 1)
    }

    @Test("ObservableResource mirrors the resource and is tracked by withObservationTracking")
    func observableResource() async {
        let model = ObservableResource(resource, as: String.self)
        let changed = ChangeFlag()
        withObservationTracking {
            _ = model.state.isLoading
        } onChange: {
            changed.set()
        }
        model.loadIfNeeded()
        #expect(changed.isSet)
        #expect(model.state.isLoading)
        resource.overrideLocalContent(with: "hi")
        #expect(model.state.content == "hi")
    }

    @Test("an observable view model goes away with its subscriptions, and its resources become flushable")
    func viewModelLifetime() {
        weak var weakResource: Resource?
        weak var weakModel: ObservableResource<Any>?
        var model: ObservableResource<Any>?
        do {
            let strong = harness.service.resource("/vm")
            model = ObservableResource(strong, as: Any.self)
            weakResource = strong
            weakModel = model
        }
        harness.service.flushUnusedResources()
        #expect(weakResource != nil)
        model = nil
        #expect(weakModel == nil)
        harness.service.flushUnusedResources()
        #expect(weakResource == nil)
    }
}

/// A flag that `withObservationTracking`'s change handler, which may run on any thread, can set.
private final class ChangeFlag: @unchecked Sendable {
    // Safe: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
