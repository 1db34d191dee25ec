import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Resource state as signals", .checksLifetimes)
struct ResourceSignalsTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    final class Owner {}
    struct User: Equatable { let name: String }

    @Test("state replays the current snapshot, then delivers one per event")
    func stateReplaysAndFollows() async {
        var seen: [String] = []
        let subscription = resource.state.observe { state in
            seen.append("loading=\(state.isLoading) data=\(state.latestData != nil) error=\(state.latestError != nil)")
        }
        await harness.answer(resource.load(), text: "x")
        await harness.answer(resource.load(), status: 500)
        #expect(
            seen == [
                "loading=false data=false error=false",
                "loading=true data=false error=false",
                "loading=false data=true error=false",
                "loading=true data=true error=false",
                "loading=false data=true error=true",
            ])
        subscription.cancel()
    }

    @Test("state(as:) types the content, and content of another type is nil rather than a crash")
    func typedState() {
        let typed = resource.state(as: User.self)
        #expect(typed.value.content == nil)
        resource.overrideLocalContent(with: User(name: "Ada"))
        #expect(typed.value.content == User(name: "Ada"))
        resource.overrideLocalContent(with: "not a user")
        #expect(typed.value.content == nil)
        #expect(resource.state(as: String.self).value.content == "not a user")
    }

    @Test("events delivers every resource event except the initial observerAdded")
    func eventsSignal() async {
        var events: [String] = []
        let subscription = resource.events.observe { events.append("\($0)") }
        await harness.answer(resource.load(), text: "x")
        resource.wipe()
        #expect(events == ["requested", "newData(network)", "newData(wipe)"])
        subscription.cancel()
    }

    @Test("a state subscription keeps its resource alive as an observer does, until cancelled")
    func subscriptionRetainsResource() {
        weak var weakResource: Resource?
        var subscription: Subscription?
        do {
            let strong = harness.service.resource("/kept")
            subscription = strong.state.observe { _ in }
            weakResource = strong
        }
        harness.service.flushUnusedResources()
        #expect(weakResource != nil)
        subscription?.cancel()
        subscription = nil
        harness.service.flushUnusedResources()
        #expect(weakResource == nil)
    }

    @Test("an owner-scoped subscription ends with its owner, and the resource becomes flushable")
    func ownerScopedSubscription() {
        weak var weakResource: Resource?
        var owner: Owner? = Owner()
        do {
            let strong = harness.service.resource("/owned")
            strong.state.observe(owner: owner!) { _ in }
            weakResource = strong
        }
        harness.service.flushUnusedResources()
        #expect(weakResource != nil)
        owner = nil
        harness.service.flushUnusedResources()
        #expect(weakResource == nil)
    }

    @Test("autoloadingState loads on the first subscriber and cancels after the last leaves")
    func autoloading() {
        let state = resource.autoloadingState(cancelDelay: 1)
        #expect(harness.network.sent.isEmpty)
        var first: ResourceState<Any>?
        let subscription = state.observe { if first == nil { first = $0 } }
        #expect(harness.network.sent.count == 1)
        #expect(first?.isLoading == true)
        let second = state.observe { _ in }
        #expect(harness.network.sent.count == 1)  // loadIfNeeded returns the load in flight
        subscription.cancel()
        second.cancel()
        #expect(resource.isLoading)
        harness.scheduler.advance(by: .milliseconds(999))
        #expect(resource.isLoading)
        harness.scheduler.advance(by: .milliseconds(1))
        #expect(!resource.isLoading)
        #expect(harness.network.cancelledCount == 1)
    }

    @Test("S9 combineLatest over two resources' states delivers no glitch values")
    func combiningResources() async {
        let other = harness.service.resource("/other")
        var seen: [String] = []
        let subscription = resource.state.combineLatest(other.state).observe { mine, theirs in
            seen.append("\(mine.isLoading)/\(theirs.isLoading)")
        }
        let load = resource.load()
        other.load()
        await harness.answer(load)
        #expect(seen == ["false/false", "true/false", "true/true", "false/true"])
        subscription.cancel()
    }

    @Test("values turns resource state into an async sequence")
    func asyncValues() async {
        let stream = resource.state.values
        var iterator = stream.makeAsyncIterator()
        let initial = await iterator.next()
        #expect(initial?.latestData == nil)
        resource.overrideLocalContent(with: "hello")
        let next = await iterator.next()
        #expect(next?.content as? String == "hello")
    }
}
