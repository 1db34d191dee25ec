extension Signal {
    /// A signal that delivers the values of this signal and of `others`, as each arrives.
    ///
    /// ```swift
    /// let taps = buttonA.merge(with: buttonB, buttonC)
    /// ```
    ///
    /// - Parameter others: More signals of the same type.
    /// - Returns: The merged signal.
    @inlinable
    public func merge(with others: Signal<Value>...) -> Signal<Value> {
        Signal.merge([self] + others)
    }

    /// A signal that delivers the values of every signal in `signals`, as each arrives.
    ///
    /// - Parameter signals: The signals to merge; an empty array gives a signal that never delivers.
    /// - Returns: The merged signal.
    @inlinable
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        Signal { downstream in
            let teardowns = signals.map { input in
                input.link(into: downstream) { value, context in downstream.deliver(value, context) }
            }
            return {
                for teardown in teardowns { teardown() }
            }
        }
    }
}
