import Foundation

extension Resource: DeadlineTarget {
    /// Polls if ``Configuration/refreshInterval`` asks for it (rule R6): called when a load completes and when an
    /// observer arrives. Loads at once if the data is older than the interval, else asks the service's timers to
    /// come back when it will be. The time it waits for is the service table's to keep, not the resource's.
    func pollWhenDue() {
        guard let interval = timing.refreshInterval, !isLoading, !cacheCheck.isChecking, invalidURLSource == nil
        else { return }
        let due = record.timestamp + interval
        if record.timestamp == 0 || due <= core.now() {
            load()
        } else if due != core.resourceTable.nextPoll(of: self) {
            core.resourceTable.setNextPoll(due, of: self)
            core.timers.add(due, for: self)
        }
    }

    /// The poll's time came: poll only if something still observes this resource; otherwise polling stops here
    /// until an observer comes back.
    func deadlineArrived(now: TimeInterval) {
        guard let due = core.resourceTable.nextPoll(of: self), due <= now else { return }  // a time no longer wanted
        core.resourceTable.setNextPoll(nil, of: self)
        guard isObserved else { return }
        pollWhenDue()
    }
}
