extension Signal {
    /// Turns this signal into a ``State`` whose value is the latest value delivered, or `initial` before any.
    ///
    /// The state stays subscribed to this signal for as long as the state itself is alive.
    ///
    /// ```swift
    /// let latestQuery = queries.signal.hold(initial: "")
    /// ```
    ///
    /// - Parameter initial: The value before this signal delivers anything.
    /// - Returns: A state that tracks this signal.
    public func hold(initial: Value) -> State<Value> {
        let state = State(storage: .stored(initial), signal: Signal())
        state.upstream = link(into: nil) { [weak state] value, context in
            guard let state else { return }
            state.replaceStoredValue(value)
            state.signal.deliver(value, context)
        }
        return state
    }
}
