extension Signal {
    /// A signal that delivers the non-nil results of `transform` applied to each value of this signal.
    ///
    /// ```swift
    /// let numbers = texts.compactMap { Int($0) }
    /// ```
    ///
    /// - Parameter transform: Converts each value, or returns nil to skip it.
    /// - Returns: The derived signal.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Value) -> T?) -> Signal<T> {
        Signal<T> { downstream in
            self.link(into: downstream) { value, context in
                if let result = transform(value) { downstream.deliver(result, context) }
            }
        }
    }
}
