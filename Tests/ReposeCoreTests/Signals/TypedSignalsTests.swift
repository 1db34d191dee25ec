import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Typed resource signals and owner-scoped view models", .checksLifetimes)
struct TypedSignalsTests {
    let harness = Harness()

    struct User: Equatable, Sendable { let name: String }

    /// A view model as the guide writes it: its observation updates its own properties.
    @MainActor
    final class ProfileModel {
        var name = ""
        var isLoading = false

        init(user: Resource) {
            user.state(as: User.self).observe(owner: self) { model, state in
                model.name = state.content?.name ?? ""
                model.isLoading = state.isLoading
            }
        }
    }

    @Test("autoloadingState(as:) loads on the first subscriber and types the content")
    func autoloadingTyped() async throws {
        let user = harness.service.resource("/users/ada")
        harness.service.configureTransformer("/users/*") { (entity: Entity<String>) in User(name: entity.content) }
        let state = user.autoloadingState(as: User.self, cancelDelay: 0)
        #expect(harness.network.sent.isEmpty)
        var seen: [String] = []
        let subscription = state.observe { seen.append("\($0.isLoading) \($0.content?.name ?? "-")") }
        #expect(harness.network.sent.count == 1)
        await harness.answer(try #require(user.loadRequests.first), text: "Ada")
        #expect(seen == ["true -", "false Ada"])
        subscription.cancel()
    }

    @Test("autoloadingState(as:) reads content of another type as nil, and cancels once unobserved")
    func autoloadingOtherType() {
        let user = harness.service.resource("/users/bob")
        user.overrideLocalContent(with: "not a user")
        user.invalidate()
        var seen: [String] = []
        let subscription = user.autoloadingState(as: User.self, cancelDelay: 1).observe { state in
            seen.append("\(state.isLoading) \(state.content?.name ?? "nil")")
        }
        // Checked here, not in the observer: an observer that never ran would otherwise pass.
        #expect(seen == ["true nil"])
        #expect(user.isLoading)
        subscription.cancel()
        harness.scheduler.advance(by: .seconds(1))
        #expect(!user.isLoading)
        #expect(harness.network.cancelledCount == 1)
    }

    @Test("ResourceState.empty exists for any content type")
    func emptyForAnyType() {
        let empty: ResourceState<User> = .empty
        #expect(empty.content == nil && empty.latestData == nil && empty.latestError == nil)
        #expect(!empty.isLoading && !empty.isRequesting && empty.timestamp == 0)
        let constant: State<ResourceState<User>> = .constant(.empty)
        #expect(constant.value.content == nil)
    }

    @Test("S1 B21 a view model observing a typed state is freed, and its resource becomes flushable at once")
    func viewModelFreed() {
        weak var weakUser: Resource?
        var model: ProfileModel?
        do {
            let user = harness.service.resource("/users/carol")
            model = ProfileModel(user: user)
            user.overrideLocalContent(with: User(name: "Carol"))
            weakUser = user
        }
        #expect(model?.name == "Carol")
        weak let weakModel = model
        model = nil
        #expect(weakModel == nil)
        // No event since: the typed state is derived, and checking whether the resource is in use sweeps it too.
        harness.service.flushUnusedResources()
        #expect(weakUser == nil)
    }
}
