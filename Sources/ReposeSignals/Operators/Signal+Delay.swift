extension Signal {
    /// A signal that delivers each value of this signal `interval` later, in order.
    ///
    /// Values still waiting when the last observer leaves are dropped.
    ///
    /// ```swift
    /// let toastHidden = toastShown.delay(for: .seconds(2), scheduler: MainScheduler())
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long each value is held back.
    ///   - scheduler: Where the delayed deliveries happen.
    /// - Returns: The delayed signal.
    @inlinable
    public func delay<S: Scheduler>(for interval: Duration, scheduler: S) -> Signal<Value> {
        Signal { downstream in
            let box = DelayBox()
            let end = UpstreamEnd.handled {
                box.isUpstreamFinished = true
                if box.waiting.isEmpty { downstream.finish() }
            }
            let upstream = self.link(into: downstream, upstreamEnd: end) { value, _ in
                let id = box.nextID
                box.nextID += 1
                let work = scheduler.schedule(after: interval) {
                    box.waiting[id] = nil
                    downstream.send(value)
                    if box.isUpstreamFinished, box.waiting.isEmpty { downstream.finish() }
                }
                if !work.isDone { box.waiting[id] = work }
            }
            return {
                upstream()
                for work in box.waiting.values { work.cancel() }
            }
        }
    }
}

/// The scheduled deliveries of one connected `delay`, so that ending the subscription cancels them.
@usableFromInline
final class DelayBox {
    @usableFromInline var nextID = 0
    @usableFromInline var waiting: [Int: ScheduledWork] = [:]
    /// Whether the upstream finished: the delayed signal finishes once the last waiting value is out.
    @usableFromInline var isUpstreamFinished = false

    @inlinable
    init() {}
}
