extension Signal {
    /// A signal of (previous, current) pairs: from the second value of this signal on, each value with the one
    /// before it (S18).
    ///
    /// ```swift
    /// let moves = positions.pairwise().map { from, to in to - from }  // 1, 4, 9 → 3, 5
    /// ```
    ///
    /// The first value after the signal regains its first observer only becomes the next pair's previous value.
    ///
    /// - Returns: The signal of pairs.
    @inlinable
    public func pairwise() -> Signal<(Value, Value)> {
        Signal<(Value, Value)> { downstream in
            let previous = OperatorState<Value?>(nil)
            return self.link(into: downstream) { value, context in
                let last = previous.value
                previous.value = value
                if let last { downstream.deliver((last, value), context) }
            }
        }
    }
}
