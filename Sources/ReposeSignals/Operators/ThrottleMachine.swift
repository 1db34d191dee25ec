/// The logic of `throttle`: at most one value per interval, with no scheduler involved.
///
/// A value arriving while no window is open is emitted at once and opens a window. Values arriving inside the
/// window are collected (the last one if `latest`, else the first one); when the window closes the collected
/// value is emitted and opens the next window, or the throttle goes idle.
@usableFromInline
struct ThrottleMachine<Value>: WindowMachine {
    @usableFromInline typealias Action = WindowAction<Value>

    @usableFromInline let latest: Bool
    @usableFromInline var isWindowOpen = false
    @usableFromInline var collected: Value?

    @inlinable
    init(latest: Bool) {
        self.latest = latest
    }

    @inlinable
    mutating func receive(_ value: Value) -> Action {
        guard isWindowOpen else {
            isWindowOpen = true
            return .emitAndOpenWindow(value)
        }
        if latest || collected == nil { collected = value }
        return .none
    }

    @inlinable
    mutating func windowClosed() -> Action {
        guard let value = collected else {
            isWindowOpen = false
            return .none
        }
        collected = nil
        return .emitAndOpenWindow(value)
    }

    /// Nothing to deliver at once: the collected value leaves when the window closes.
    @inlinable
    func upstreamFinished() -> Action { .none }

    @inlinable
    var isEmpty: Bool { collected == nil }

    /// Drops the collected value and closes the window, as when the subscription ends.
    @inlinable
    mutating func reset() {
        collected = nil
        isWindowOpen = false
    }
}
