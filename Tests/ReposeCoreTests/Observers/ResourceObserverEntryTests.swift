import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Notifying skips pruning when no entry needs it; these pin down when an entry needs it.
@MainActor
@Suite("ResourceObserverEntry: when an entry needs pruning")
struct ObserverEntryTests {
    final class Owner {}

    final class SelfOwned: ResourceObserver {
        func resourceChanged(_ resource: Resource, event: ResourceEvent) {}
    }

    /// An observer without identity that is not a closure, so it takes the general path.
    struct ValueObserver: ResourceObserver {
        func resourceChanged(_ resource: Resource, event: ResourceEvent) {}
    }

    @Test("B20 an entry whose owners are all alive needs no pruning")
    func liveOwners() {
        let owners = [Owner(), Owner()]
        let entry = ResourceObserverEntry(observer: ValueObserver())
        for owner in owners { entry.addOwner(owner) }
        withExtendedLifetime(owners) {  // optimised builds may free objects after their last use
            #expect(!entry.needsPruning)
            #expect(entry.prune())
            #expect(!entry.needsPruning)
        }
    }

    @Test("B21 an entry with a deallocated owner needs pruning, even while another owner lives")
    func deadOwner() throws {
        let survivor = Owner()
        var departing: Owner? = Owner()
        let entry = ResourceObserverEntry(observer: ValueObserver())
        entry.addOwner(survivor)
        entry.addOwner(try #require(departing))
        departing = nil
        withExtendedLifetime(survivor) {
            #expect(entry.needsPruning)
            #expect(entry.prune())  // still alive through the survivor
            #expect(!entry.needsPruning)
        }
    }

    @Test("B20 a self-owned observer needs no pruning while it lives, and needs it once it is gone")
    func selfOwned() throws {
        var observer: SelfOwned? = SelfOwned()
        let entry = ResourceObserverEntry(observer: try #require(observer))
        entry.addOwner(try #require(observer))
        #expect(!entry.needsPruning)
        observer = nil
        #expect(entry.needsPruning)
        #expect(!entry.prune())
    }

    @Test("B21 an entry whose last owner was removed but which still holds its observer needs pruning")
    func removedOwner() {
        let owner = Owner()
        let entry = ResourceObserverEntry(observer: ValueObserver())
        entry.addOwner(owner)
        withExtendedLifetime(owner) {
            #expect(!entry.removeOwner(owner))
            #expect(entry.needsPruning)
        }
    }

    @Test("B21 a closure observer's entry needs pruning once its owner is deallocated, and is then dead")
    func closureOwnerGone() throws {
        var owner: Owner? = Owner()
        let entry = ResourceObserverEntry(closure: { _, _ in }, owner: try #require(owner), ownerRun: 0)
        #expect(entry.closureOwnerIsAlive)
        #expect(!entry.needsPruning)
        owner = nil
        #expect(!entry.closureOwnerIsAlive)
        #expect(entry.needsPruning)
        #expect(!entry.prune())
    }

    @Test("B3 removing a closure observer's owner ends its entry; removing another object does not")
    func closureOwnerRemoved() {
        let owner = Owner()
        let stranger = Owner()
        let entry = ResourceObserverEntry(closure: { _, _ in }, owner: owner, ownerRun: 0)
        withExtendedLifetime((owner, stranger)) {
            #expect(entry.removeOwner(stranger))
            #expect(!entry.removeOwner(owner))
            #expect(entry.end() == nil)  // a closure has nothing to be told
        }
    }
}
