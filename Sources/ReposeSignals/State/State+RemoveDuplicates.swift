extension State {
    /// A state with the same value whose observers are not told about a change to an equivalent value.
    ///
    /// - Parameter isDuplicate: Returns true when the second value should be skipped after the first.
    /// - Returns: The de-duplicated state.
    public func removeDuplicates(by isDuplicate: @escaping (Value, Value) -> Bool) -> State<Value> {
        State(
            storage: .derived { self.value },
            signal: signal.removingDuplicates(seed: { self.value }, by: isDuplicate))
    }

    /// A state with the same value whose observers are not told about a change to a value with an equal key (S19).
    ///
    /// ```swift
    /// let user = session.removeDuplicates(by: \.userID)
    /// ```
    ///
    /// - Parameter key: Returns the part of a value that decides whether it changed.
    /// - Returns: The de-duplicated state.
    public func removeDuplicates<Key: Equatable>(by key: @escaping (Value) -> Key) -> State<Value> {
        removeDuplicates { key($0) == key($1) }
    }
}

extension State where Value: Equatable {
    /// A state with the same value whose observers are not told about a change to an equal value (S7).
    ///
    /// ```swift
    /// let query = MutableState("swift")
    /// let distinct = query.state.removeDuplicates()
    /// query.value = "swift"  // observers of `distinct` hear nothing
    /// ```
    ///
    /// - Returns: The de-duplicated state.
    public func removeDuplicates() -> State<Value> {
        removeDuplicates(by: ==)
    }
}
