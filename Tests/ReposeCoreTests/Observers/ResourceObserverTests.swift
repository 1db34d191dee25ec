import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Resource observers", .checksLifetimes)
struct ResourceObserverTests {
    let harness = Harness()
    var resource: Resource { harness.service.resource("/a/b") }

    final class Owner {}

    @Test("B1 a new observer gets observerAdded at once; existing observers get nothing")
    func observerAdded() {
        let first = RecordingObserver()
        let second = RecordingObserver()
        resource.addObserver(first)
        resource.addObserver(second)
        #expect(first.events == ["observerAdded"])
        #expect(second.events == ["observerAdded"])
    }

    @Test("B2 removing a self-owned observer sends it stoppedObserving")
    func removeSelfOwned() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        resource.removeObservers(ownedBy: observer)
        #expect(observer.stoppedCount == 1)
        resource.load()
        #expect(observer.events == ["observerAdded"])
    }

    @Test("B3 an observer with an external owner stops when the owner is removed, even if nothing else holds it")
    func externalOwner() {
        let owner = Owner()
        weak var weakObserver: RecordingObserver?
        var stopped = 0
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            resource.addObserver(observer, owner: owner)
        }
        #expect(weakObserver != nil)  // held by the resource for its owner
        let observer = weakObserver
        resource.removeObservers(ownedBy: owner)
        stopped = observer?.stoppedCount ?? -1
        #expect(stopped == 1)
    }

    @Test("B4 a self-owned observer that is deallocated receives nothing and is freed")
    func deallocatedSelfOwned() {
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            resource.addObserver(observer)
        }
        #expect(weakObserver == nil)
        resource.load()
        #expect(!resource.hasObservers)
    }

    @Test("B5 each add and remove cycle gives a fresh observerAdded and stoppedObserving")
    func addRemoveCycles() {
        let observer = RecordingObserver()
        for _ in 0..<3 {
            resource.addObserver(observer)
            resource.removeObservers(ownedBy: observer)
        }
        #expect(observer.events == ["observerAdded", "observerAdded", "observerAdded"])
        #expect(observer.stoppedCount == 3)
    }

    @Test("B7 addObserver returns the resource so calls chain")
    func chaining() {
        let observer = RecordingObserver()
        let returned = resource.addObserver(observer).addObserver(owner: observer) { _, _ in }
        #expect(returned === resource)
    }

    @Test("B8 B9 during requested the state is loading and unchanged; newData follows with the data")
    func requestedThenNewData() async {
        let observer = RecordingObserver()
        var snapshots: [String] = []
        observer.onChange = { resource, event in
            snapshots.append(
                "\(event) loading=\(resource.isLoading) data=\(resource.latestData != nil) error=\(resource.latestError != nil)"
            )
        }
        resource.addObserver(observer)
        await harness.answer(resource.load(), text: "x")
        #expect(
            snapshots == [
                "observerAdded loading=false data=false error=false",
                "requested loading=true data=false error=false",
                "newData(network) loading=false data=true error=false",
            ])
    }

    @Test("B10 overrideLocalData sends newData(localOverride) and no requested")
    func overrideEvent() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        resource.overrideLocalContent(with: "x")
        #expect(observer.events == ["observerAdded", "newData(localOverride)"])
    }

    @Test("B11 a 304 sends requested then notModified, with loading over")
    func notModifiedEvents() async {
        await harness.answer(resource.load(), text: "x", headers: ["ETag": "1"])
        let observer = RecordingObserver()
        var loadingAtNotModified: Bool?
        observer.onChange = { resource, event in
            if event == .notModified { loadingAtNotModified = resource.isLoading }
        }
        resource.addObserver(observer)
        await harness.answer(resource.load(), status: 304)
        #expect(observer.events == ["observerAdded", "requested", "notModified"])
        #expect(loadingAtNotModified == false)
    }

    @Test("B12 a 304 without local data is an error caused by NoLocalDataFor304")
    func notModifiedWithoutData() async {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        await harness.answer(resource.load(), status: 304)
        #expect(observer.events == ["observerAdded", "requested", "error"])
        #expect(resource.latestError?.cause is RequestError.Cause.NoLocalDataFor304)
    }

    @Test("B13 a cancelled load sends requested then requestCancelled, with loading over")
    func cancelledEvents() {
        let observer = RecordingObserver()
        var loadingAtCancel: Bool?
        observer.onChange = { resource, event in
            if event == .requestCancelled { loadingAtCancel = resource.isLoading }
        }
        resource.addObserver(observer)
        resource.load().cancel()
        #expect(observer.events == ["observerAdded", "requested", "requestCancelled"])
        #expect(loadingAtCancel == false)
    }

    @Test("B14 a failed load sends requested then error, with the error set and no data")
    func failedEvents() async {
        let observer = RecordingObserver()
        var state: String?
        observer.onChange = { resource, event in
            if event == .error {
                state =
                    "error=\(resource.latestError != nil) data=\(resource.latestData != nil) loading=\(resource.isLoading)"
            }
        }
        resource.addObserver(observer)
        await harness.answer(resource.load(), status: 404)
        #expect(observer.events == ["observerAdded", "requested", "error"])
        #expect(state == "error=true data=false loading=false")
    }

    @Test("B16 closure observers see observerAdded, requested, newData(network)")
    func closureObserverEvents() async {
        let owner = Owner()
        var events: [String] = []
        resource.addObserver(owner: owner) { _, event in events.append("\(event)") }
        await harness.answer(resource.load(), text: "x")
        #expect(events == ["observerAdded", "requested", "newData(network)"])
    }

    @Test("B18 adding the same observer object twice registers it once")
    func duplicateObject() {
        let observer = RecordingObserver()
        resource.addObserver(observer)
        resource.addObserver(observer)
        resource.load()
        #expect(observer.events == ["observerAdded", "requested"])
    }

    @Test("B19 an observer with several owners observes until every owner is gone")
    func severalOwners() {
        let observer = RecordingObserver()
        let ownerA = Owner()
        var ownerB: Owner? = Owner()
        resource.addObserver(observer)
        resource.addObserver(observer, owner: ownerA)
        resource.addObserver(observer, owner: ownerB!)
        resource.removeObservers(ownedBy: observer)
        resource.removeObservers(ownedBy: ownerA)
        resource.load()
        #expect(observer.events.last == "requested")
        ownerB = nil
        resource.load()
        #expect(observer.events == ["observerAdded", "requested"])
        #expect(!resource.hasObservers)
    }

    @Test("B19 an observer whose only owner is deallocated hears nothing more and is told it stopped (B3)")
    func externalOwnerDeallocated() throws {
        let observer = RecordingObserver()
        var owner: Owner? = Owner()
        resource.addObserver(owner: try #require(owner)) { _, _ in }
        resource.addObserver(observer, owner: try #require(owner))
        resource.overrideLocalContent(with: "one")
        owner = nil
        resource.overrideLocalContent(with: "two")
        #expect(observer.events == ["observerAdded", "newData(localOverride)"])
        #expect(observer.stoppedCount == 1)
        #expect(resource.observers.isEmpty)
    }

    @Test("B19 a closure observer falls silent once its owner is deallocated; the others still hear, in order")
    func closureOwnerDeallocated() {
        var heard: [String] = []
        let keeper = Owner()
        var departing: Owner? = Owner()
        let observer = RecordingObserver()
        resource.addObserver(owner: keeper) { _, event in heard.append("first \(event)") }
        resource.addObserver(owner: departing!) { _, event in heard.append("departing \(event)") }
        resource.addObserver(observer)
        resource.addObserver(owner: keeper) { _, event in heard.append("last \(event)") }
        heard = []
        resource.overrideLocalContent(with: "one")
        #expect(
            heard == [
                "first newData(localOverride)", "departing newData(localOverride)", "last newData(localOverride)",
            ])
        departing = nil
        resource.overrideLocalContent(with: "two")
        #expect(heard.suffix(2) == ["first newData(localOverride)", "last newData(localOverride)"])
        #expect(heard.count == 5)
        #expect(observer.events == ["observerAdded", "newData(localOverride)", "newData(localOverride)"])
        #expect(resource.observers.count == 3)  // the silent one is forgotten, not just skipped
        withExtendedLifetime(keeper) {}
    }
}
