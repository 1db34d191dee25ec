import Testing

@testable import ReposeSignals

@Suite("Signal.timer")
struct TimerTests {
    let scheduler = TestScheduler()
    let recorder = RecordingObserver<Duration>()

    var timer: Signal<Duration> { Signal.timer(every: .seconds(1), scheduler: scheduler) }

    @Test("S13 S20 the timer ticks every interval from its first observer, delivering the scheduler's time")
    func basic() {
        scheduler.advance(by: .milliseconds(500))
        let subscription = timer.observe(recorder.handler)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.values == [.milliseconds(1_500), .milliseconds(2_500), .milliseconds(3_500)])
        _ = subscription
    }

    @Test("S20 the timer ticks only while observed: no work is scheduled before or after")
    func onlyWhileObserved() {
        let signal = timer
        #expect(scheduler.pendingCount == 0)
        var subscription = signal.observe(recorder.handler)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        subscription.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(5))
        subscription = signal.observe(recorder.handler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [.seconds(1), .seconds(7)])
        _ = subscription
    }

    @Test("S20 a burst of virtual time delivers every tick, in order")
    func burst() {
        let subscription = timer.observe(recorder.handler)
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values == (1...5).map { .seconds($0) })
        _ = subscription
    }

    @Test("S20 a subscription that ends before the first tick gets nothing, and the tick is cancelled")
    func endWhilePending() {
        let subscription = timer.observe(recorder.handler)
        scheduler.advance(by: .milliseconds(999))
        subscription.cancel()
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values.isEmpty)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("S1 S20 once the owner is gone the timer stops at its next tick, and its closure is released")
    func ownerGoesAway() {
        var owner: StubOwner? = StubOwner()
        var probe: LifetimeProbe? = LifetimeProbe()
        let weakProbe = WeakReference(probe)
        var signal: Signal<Duration>? = timer
        let weakSignal = WeakReference(signal)
        signal?.observe(owner: owner ?? StubOwner()) { [probe, recorder] time in
            probe?.touch()
            recorder.record(time)
        }
        signal = nil
        probe = nil
        scheduler.advance(by: .seconds(1))
        owner = nil
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [.seconds(1)])
        #expect(weakProbe.object == nil)
        #expect(weakSignal.object == nil)
        #expect(scheduler.pendingCount == 0)
    }

    @Test("S4 S20 an observer that cancels from inside a tick stops the timer")
    func cancelFromTick() {
        var subscription: Subscription?
        subscription = timer.observe { [recorder] time in
            recorder.record(time)
            subscription?.cancel()
        }
        scheduler.advance(by: .seconds(3))
        #expect(recorder.values == [.seconds(1)])
        #expect(scheduler.pendingCount == 0)
    }

    @Test("S20 with the immediate scheduler the timer ticks once as it starts")
    func immediate() {
        let subscription = Signal.timer(every: .seconds(1), scheduler: ImmediateScheduler()).observe(recorder.handler)
        #expect(recorder.values.count == 1)
        _ = subscription
    }
}

@Suite("TimerMachine")
struct TimerMachineTests {
    @Test("S20 ticks fall on multiples of the interval from the start, and a late tick skips the missed ones")
    func schedule() {
        var machine = TimerMachine(interval: .seconds(1))
        let first = machine.start(now: .milliseconds(200))
        let onTime = machine.fired(now: .milliseconds(1_200))
        let late = machine.fired(now: .milliseconds(2_500))
        let veryLate = machine.fired(now: .milliseconds(6_700))
        #expect(first == .seconds(1))
        #expect(onTime == .seconds(1))
        #expect(late == .milliseconds(700))
        #expect(veryLate == .milliseconds(500))
        #expect(machine.due == .milliseconds(7_200))
    }
}
