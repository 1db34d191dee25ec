import Foundation

extension Resource {
    /// How many registered observers are alive, without pruning the dead ones (pruning tells observers they
    /// stopped observing, which inspecting must not do). Each of the resource's signals that has subscribers
    /// observes it through one entry, so it counts once.
    var liveObserverCount: Int {
        var count = 0
        for entry in observers.entries
        where entry.isClosureObserver ? entry.closureOwnerIsAlive : entry.observer != nil {
            count += 1
        }
        return count
    }
}
