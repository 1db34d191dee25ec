extension State {
    /// A state whose value is `transform` applied to this state's value.
    ///
    /// The transform runs when the derived value is read and for each change; keep it cheap and pure.
    ///
    /// ```swift
    /// let title: State<String> = count.map { "\($0) items" }
    /// ```
    ///
    /// - Parameter transform: Computes the derived value.
    /// - Returns: The derived state.
    public func map<T>(_ transform: @escaping (Value) -> T) -> State<T> {
        State<T>(storage: .derived { transform(self.value) }, signal: signal.map(transform))
    }
}
