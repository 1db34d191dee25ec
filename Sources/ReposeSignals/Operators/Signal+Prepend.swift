extension Signal {
    /// A signal that delivers `values` to each new observer as it subscribes, then this signal's values.
    ///
    /// ```swift
    /// let status = updates.prepend("loading")
    /// ```
    ///
    /// Operators built on the result share one subscription to it, so they see the prefix once, when they
    /// connect.
    ///
    /// - Parameter values: The values each observer receives first.
    /// - Returns: The derived signal.
    @inlinable
    public func prepend(_ values: Value...) -> Signal<Value> {
        prepend(contentsOf: values)
    }

    /// A signal that delivers `values` to each new observer as it subscribes, then this signal's values.
    ///
    /// - Parameter values: The values each observer receives first.
    /// - Returns: The derived signal.
    @inlinable
    public func prepend<S: Sequence<Value>>(contentsOf values: S) -> Signal<Value> {
        Signal(prefix: ContiguousArray(values)) { downstream in
            self.link(into: downstream) { value, context in downstream.deliver(value, context) }
        }
    }
}
