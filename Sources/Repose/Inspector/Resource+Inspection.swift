import Foundation

extension Resource {
    /// How many registered observers are alive, without pruning the dead ones (pruning tells observers they
    /// stopped observing, which inspecting must not do). Each of the resource's signals that has subscribers
    /// observes it through one entry, so it counts once.
    var liveObserverCount: Int {
        observers.entries.count { $0.isClosureObserver ? $0.closureOwnerIsAlive : $0.observer != nil }
    }
}
