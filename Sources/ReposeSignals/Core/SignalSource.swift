/// Creates a root ``Signal`` and sends values into it.
///
/// Keep the source private and expose only ``signal``, so that only its owner can send:
///
/// ```swift
/// final class Clock {
///     private let ticks = SignalSource<Int>()
///     var tick: Signal<Int> { ticks.signal }
///     func advance(to second: Int) { ticks.send(second) }
/// }
/// ```
///
/// When the source is released nothing can be sent any more, so every current observer of its signal is
/// released too.
public final class SignalSource<Value> {
    /// The signal that delivers every value sent through this source.
    public let signal: Signal<Value>

    /// Creates a source with no observers.
    @inlinable
    public init() {
        signal = Signal()
    }

    deinit {
        signal.terminate()
    }

    /// Delivers `value` synchronously to every observer of ``signal``, in subscription order.
    ///
    /// A value sent from inside an observer is queued and delivered, to every observer, after the current
    /// delivery finishes.
    ///
    /// - Parameter value: The value to deliver.
    @inlinable
    public func send(_ value: Value) {
        signal.send(value)
    }
}
