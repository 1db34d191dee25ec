/// The logic of `collect(count:)` and `collect(every:scheduler:)`: which values make up the next array and when it
/// is complete, with no signals or time involved (S18).
///
/// By count, an array leaves as soon as it holds `count` values. By time, the first value after a quiet spell opens
/// a window; the values that arrive until its timer fires leave together, and a window that saw no value emits
/// nothing (there is none open).
@usableFromInline
struct CollectMachine<Value>: WindowMachine {
    @usableFromInline typealias Action = WindowAction<[Value]>

    /// How many values make an array; nil when collecting by time.
    @usableFromInline let count: Int?
    /// The values of the next array; by time, a window is open exactly while it holds any.
    @usableFromInline var collected: [Value] = []

    /// - Parameter count: How many values make an array (at least one), or nil to collect by time windows.
    @inlinable
    init(count: Int?) {
        self.count = count.map { max($0, 1) }
    }

    /// A value arrived.
    @inlinable
    mutating func receive(_ value: Value) -> Action {
        if collected.isEmpty, let count { collected.reserveCapacity(count) }
        collected.append(value)
        guard let count else { return collected.count == 1 ? .openWindow : .none }
        return collected.count == count ? .emit(take()) : .none
    }

    /// The window's timer fired: the array of its values.
    @inlinable
    mutating func windowClosed() -> Action {
        collected.isEmpty ? .none : .emit(take())
    }

    /// The upstream finished: what is collected leaves now, complete or not.
    @inlinable
    mutating func upstreamFinished() -> Action {
        windowClosed()
    }

    @inlinable
    var isEmpty: Bool { collected.isEmpty }

    @inlinable
    mutating func take() -> [Value] {
        defer { collected = [] }
        return collected
    }

    /// Drops what is collected, as when the signal loses its last observer.
    @inlinable
    mutating func reset() {
        collected = []
    }
}
