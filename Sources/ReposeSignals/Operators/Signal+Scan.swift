extension Signal {
    /// A signal that delivers a running accumulation: `next` applied to the previous result and each value.
    ///
    /// The accumulation starts again from `initial` whenever the signal regains its first observer.
    ///
    /// ```swift
    /// let total = amounts.scan(0, +)  // 1, 2, 3 → 1, 3, 6
    /// ```
    ///
    /// - Parameters:
    ///   - initial: The result before the first value.
    ///   - next: Combines the previous result with a new value.
    /// - Returns: The signal of accumulated results.
    @inlinable
    public func scan<Result>(
        _ initial: Result, _ next: @escaping (Result, Value) -> Result
    ) -> Signal<Result> {
        Signal<Result> { downstream in
            let accumulated = OperatorState(initial)
            return self.link(into: downstream) { value, context in
                accumulated.value = next(accumulated.value, value)
                downstream.deliver(accumulated.value, context)
            }
        }
    }
}
