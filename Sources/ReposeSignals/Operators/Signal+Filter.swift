extension Signal {
    /// A signal that delivers only the values of this signal that satisfy `isIncluded`.
    ///
    /// ```swift
    /// let evens = numbers.filter { $0.isMultiple(of: 2) }
    /// ```
    ///
    /// - Parameter isIncluded: Returns true for the values to deliver.
    /// - Returns: The derived signal.
    @inlinable
    public func filter(_ isIncluded: @escaping (Value) -> Bool) -> Signal<Value> {
        Signal { downstream in
            self.link(into: downstream) { value, context in
                if isIncluded(value) { downstream.deliver(value, context) }
            }
        }
    }
}
