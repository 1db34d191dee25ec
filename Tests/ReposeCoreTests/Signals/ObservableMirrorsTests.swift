import Foundation
import Observation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Observable mirrors over the State bridge", .checksLifetimes)
struct ObservableMirrorsTests {
    let harness = Harness()

    /// Whether reading `read` under observation tracking is told about the next change that `change` makes.
    func tracksChange(of read: () -> Void, when change: () async -> Void) async -> Bool {
        let changed = MirrorChangeFlag()
        withObservationTracking(read) { changed.set() }
        await change()
        return changed.isSet
    }

    /// Accepts only `Observable` types: SwiftUI's `@Bindable` and `@Environment(Type.self)` ask the same.
    func requiresObservable(_ object: some Observable) -> Bool { true }

    @Test("S22 the resource, group and list mirrors are Observable objects")
    func observableConformance() {
        let resource = harness.service.resource("/a")
        #expect(requiresObservable(ObservableResource(resource, as: String.self)))
        #expect(requiresObservable(ObservableResourceGroup(ResourceGroup([resource]))))
        #expect(requiresObservable(ObservableState(MutableState(1).state)))
    }

    @Test("S22 ObservableResourceGroup follows the group through the bridge, tracked by withObservationTracking")
    func groupMirror() async {
        let user = harness.service.resource("/user")
        let group = ResourceGroup([user])
        let mirror = ObservableResourceGroup(group)
        #expect(mirror.state.memberCount == 1)
        let tracked = await tracksChange(of: { _ = mirror.state.isLoading }, when: { group.loadIfNeeded() })
        #expect(tracked)
        #expect(mirror.state.isLoading)
        await harness.answer(user.loadRequests[0], text: "u")
        #expect(mirror.state.hasAllData)
    }

    @Test("S22 a group mirror is freed when its holder lets go, and its observation with it")
    func groupMirrorFreed() {
        let group = ResourceGroup([harness.service.resource("/user")])
        var mirror: ObservableResourceGroup? = ObservableResourceGroup(group)
        weak let weakMirror = mirror
        mirror = nil
        #expect(weakMirror == nil)
        group.loadIfNeeded()  // a change reaching a released mirror would crash: it holds itself unowned
    }
}

/// A flag that `withObservationTracking`'s change handler, which may run on any thread, can set.
private final class MirrorChangeFlag: @unchecked Sendable {
    // Safe: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
