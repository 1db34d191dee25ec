extension Signal {
    /// A signal that delivers `transform` applied to each value of this signal.
    ///
    /// ```swift
    /// let lengths = names.map { $0.count }
    /// ```
    ///
    /// - Parameter transform: Converts each value; called once per value, however many observers there are.
    /// - Returns: The derived signal.
    @inlinable
    public func map<T>(_ transform: @escaping (Value) -> T) -> Signal<T> {
        Signal<T> { downstream in
            self.link(into: downstream) { value, context in
                downstream.deliver(transform(value), context)
            }
        }
    }
}
