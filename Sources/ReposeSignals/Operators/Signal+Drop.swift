extension Signal {
    /// A signal that skips the first `count` values of this signal, then delivers every value.
    ///
    /// ```swift
    /// let changes = state.signal.dropFirst()  // every change after the first one
    /// ```
    ///
    /// The count starts afresh whenever the signal regains its first observer, as `scan`'s accumulation does.
    ///
    /// - Parameter count: How many values to skip; one by default.
    /// - Returns: The derived signal.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Signal<Value> {
        Signal { downstream in
            let remaining = OperatorState(max(count, 0))
            return self.link(into: downstream) { value, context in
                if remaining.value > 0 {
                    remaining.value -= 1
                } else {
                    downstream.deliver(value, context)
                }
            }
        }
    }

    /// A signal that skips the values of this signal while `predicate` holds, then delivers every value, from the
    /// first that fails it on.
    ///
    /// ```swift
    /// let afterSetup = events.drop { $0 != .ready }
    /// ```
    ///
    /// Skipping starts afresh whenever the signal regains its first observer.
    ///
    /// - Parameter predicate: Returns true for the leading values to skip.
    /// - Returns: The derived signal.
    @inlinable
    public func drop(while predicate: @escaping (Value) -> Bool) -> Signal<Value> {
        Signal { downstream in
            let isDropping = OperatorState(true)
            return self.link(into: downstream) { value, context in
                if isDropping.value {
                    guard !predicate(value) else { return }
                    isDropping.value = false
                }
                downstream.deliver(value, context)
            }
        }
    }
}
