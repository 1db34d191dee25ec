import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Closure observers added one after another with the same owner form a run, and notifying checks that owner once
/// per run. These pin down that the shortcut never changes who hears what.
@MainActor
@Suite("Resource observers: closures sharing an owner", .checksLifetimes)
struct ClosureOwnerRunTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    final class Owner {}

    /// Adds closures that record `label event` into `heard`, one per label, in order.
    private func observe(_ labels: [String], owner: AnyObject, into heard: Recorder) {
        for label in labels {
            resource.addObserver(owner: owner) { _, event in heard.lines.append("\(label) \(event)") }
        }
    }

    final class Recorder {
        var lines: [String] = []
    }

    @Test("B19 closures sharing an owner fall silent together once it is deallocated; another owner's still hear")
    func runOwnerDeallocated() throws {
        let heard = Recorder()
        var departing: Owner? = Owner()
        let keeper = Owner()
        observe(["a1", "a2"], owner: try #require(departing), into: heard)
        observe(["k1"], owner: keeper, into: heard)
        observe(["a3"], owner: try #require(departing), into: heard)
        heard.lines = []
        resource.overrideLocalContent(with: "one")
        #expect(heard.lines.map { $0.prefix(2) } == ["a1", "a2", "k1", "a3"])
        departing = nil
        resource.overrideLocalContent(with: "two")
        #expect(heard.lines.suffix(from: 4) == ["k1 newData(localOverride)"])
        #expect(resource.observers.count == 1)
        withExtendedLifetime(keeper) {}
    }

    @Test("B19 an owner removed by one of its closures mid-delivery silences its later closures at once (S5)")
    func ownerRemovedMidDelivery() {
        let heard = Recorder()
        let owner = Owner()
        let other = Owner()
        let resource = resource
        resource.addObserver(owner: owner) { resource, event in
            heard.lines.append("first \(event)")
            if event != .observerAdded { resource.removeObservers(ownedBy: owner) }
        }
        observe(["second", "third"], owner: owner, into: heard)
        observe(["other"], owner: other, into: heard)
        heard.lines = []
        resource.overrideLocalContent(with: "one")
        #expect(heard.lines == ["first newData(localOverride)", "other newData(localOverride)"])
        resource.overrideLocalContent(with: "two")
        #expect(heard.lines.count == 3)
        #expect(heard.lines.last == "other newData(localOverride)")
        withExtendedLifetime(other) {}
    }

    @Test("B21 a delivery keeps an owner alive while it calls the owner's closures, then lets it go")
    func ownerReleasedMidDelivery() throws {
        let heard = Recorder()
        var holder: Owner? = Owner()
        weak let probe = holder
        resource.addObserver(owner: try #require(holder)) { _, event in
            heard.lines.append("first \(event)")
            if event != .observerAdded { holder = nil }  // the last strong reference outside Repose
        }
        resource.addObserver(owner: try #require(probe)) { _, event in
            heard.lines.append("second \(event), owner alive: \(probe != nil)")
        }
        heard.lines = []
        resource.overrideLocalContent(with: "one")
        // Closures often capture their owner unowned: the second one must not run after its owner is freed, so
        // the owner lives until the delivery has called it, and no longer.
        #expect(heard.lines == ["first newData(localOverride)", "second newData(localOverride), owner alive: true"])
        #expect(probe == nil)
        resource.overrideLocalContent(with: "two")
        #expect(heard.lines.count == 2)
        #expect(!resource.hasObservers)
    }

    @Test("B19 a run split by removing the observers between its parts still checks each part's owner")
    func runsMeetAfterRemoval() throws {
        let heard = Recorder()
        var first: Owner? = Owner()
        let middle = Owner()
        let last = Owner()
        observe(["f"], owner: try #require(first), into: heard)
        observe(["m"], owner: middle, into: heard)
        observe(["l"], owner: last, into: heard)
        resource.removeObservers(ownedBy: middle)
        first = nil
        heard.lines = []
        resource.overrideLocalContent(with: "one")
        #expect(heard.lines == ["l newData(localOverride)"])
        withExtendedLifetime(last) {}
    }
}
