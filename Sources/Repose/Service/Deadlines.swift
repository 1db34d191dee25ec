import Foundation

/// Something that wants to act at a time on the service's clock: a resource's next poll, a state that must say its
/// data turned stale.
@MainActor
protocol DeadlineTarget: AnyObject {
    /// Called once the service clock reaches a time this target asked for. A target asks again whenever its wishes
    /// change, so it checks here whether the time is still one it wants (older requests are not withdrawn).
    func deadlineArrived(now: TimeInterval)
}

/// Every deadline of a service's resources behind one timer: the scheduler holds a single piece of work, for the
/// earliest time, however many resources poll or watch for staleness, so nothing runs on the main actor between
/// due times.
///
/// A target whose wishes changed asks again and ignores the call it no longer wants; a target that wants nothing
/// more (a state whose last observer left) withdraws its requests, so that no timer stays armed for it. A request
/// costs O(log n), a withdrawal O(n); the service pays for requests only while resources poll or states are
/// observed.
@MainActor
final class Deadlines {
    private struct Entry {
        let time: TimeInterval
        weak var target: (any DeadlineTarget)?
    }

    private let scheduler: any Scheduler & Sendable
    private let now: @Sendable () -> TimeInterval
    /// A binary min-heap on `time`.
    private var heap: [Entry] = []
    /// The one piece of work waiting in the scheduler, and the time it is for.
    private var armed: (time: TimeInterval, work: ScheduledWork)?

    init(scheduler: any Scheduler & Sendable, now: @escaping @Sendable () -> TimeInterval) {
        self.scheduler = scheduler
        self.now = now
    }

    /// How many requests wait, withdrawn ones included. For tests.
    var count: Int { heap.count }

    /// Calls `target` once the clock reaches `time`, or soon after.
    func add(_ time: TimeInterval, for target: any DeadlineTarget) {
        heap.append(Entry(time: time, target: target))
        siftUp(heap.count - 1)
        armForEarliest()
    }

    /// Withdraws every request of `target`, and of targets that are gone (rule R7: a state's last observer left,
    /// so its "now stale" time is no longer wanted). When nothing is left to wait for, the scheduler's work is
    /// cancelled too, so no timer outlives the last wish; otherwise it is armed for the earliest wish left.
    func withdraw(_ target: any DeadlineTarget) {
        let count = heap.count
        heap.removeAll { $0.target == nil || $0.target === target }
        guard heap.count != count else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            siftDown(index)
        }
        if let armed, armed.time < (heap.first?.time ?? .infinity) {
            armed.work.cancel()
            self.armed = nil
        }
        armForEarliest()
    }

    private func armForEarliest() {
        guard let earliest = heap.first?.time else { return }
        if let armed, armed.time <= earliest { return }
        armed?.work.cancel()
        let delay = max(0, earliest - now())
        // The service's scheduler runs its work on the main actor (see `cancelLoadIfUnobserved(afterDelay:)`).
        let work = scheduler.schedule(after: .nanoseconds(Int64((delay * 1e9).rounded(.up)))) { [weak self] in
            MainActor.assumeIsolated { self?.fire() }
        }
        armed = (earliest, work)
    }

    private func fire() {
        armed = nil
        let current = now()
        var due: [any DeadlineTarget] = []
        while let first = heap.first, first.time <= current {
            if let target = first.target { due.append(target) }
            removeFirst()
        }
        armForEarliest()
        for target in due {
            target.deadlineArrived(now: current)
        }
    }

    // MARK: Heap

    private func removeFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(0)
    }

    private func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < heap.count, heap[left].time < heap[smallest].time { smallest = left }
            if right < heap.count, heap[right].time < heap[smallest].time { smallest = right }
            guard smallest != index else { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }

    private func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard heap[index].time < heap[parent].time else { return }
            heap.swapAt(index, parent)
            index = parent
        }
    }
}
