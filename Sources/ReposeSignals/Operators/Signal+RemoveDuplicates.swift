extension Signal {
    /// A signal that skips each value equivalent to the value delivered just before it.
    ///
    /// The comparison starts afresh whenever the signal regains its first observer.
    ///
    /// - Parameter isDuplicate: Returns true when the second value should be skipped after the first.
    /// - Returns: The derived signal.
    @inlinable
    public func removeDuplicates(by isDuplicate: @escaping (Value, Value) -> Bool) -> Signal<Value> {
        removingDuplicates(seed: nil, by: isDuplicate)
    }

    /// A signal that skips each value whose key equals the key of the value delivered just before it (S19).
    ///
    /// Pass a key path or a function that extracts the key:
    ///
    /// ```swift
    /// let selection = selected.removeDuplicates(by: \.id)  // a new item with the same id is skipped
    /// ```
    ///
    /// - Parameter key: Returns the part of a value that decides whether it is new.
    /// - Returns: The derived signal.
    @inlinable
    public func removeDuplicates<Key: Equatable>(by key: @escaping (Value) -> Key) -> Signal<Value> {
        removeDuplicates { key($0) == key($1) }
    }

    /// Skips duplicates; `seed` provides the value to compare the first delivery with (a state's current value).
    @inlinable
    func removingDuplicates(
        seed: (() -> Value)?, by isDuplicate: @escaping (Value, Value) -> Bool
    ) -> Signal<Value> {
        Signal { downstream in
            let previous = OperatorState(seed?())
            return self.link(into: downstream) { value, context in
                if let last = previous.value, isDuplicate(last, value) { return }
                previous.value = value
                downstream.deliver(value, context)
            }
        }
    }
}

extension Signal where Value: Equatable {
    /// A signal that skips each value equal to the value delivered just before it.
    ///
    /// ```swift
    /// let changes = readings.removeDuplicates()  // 1, 1, 2, 2, 1 → 1, 2, 1
    /// ```
    ///
    /// - Returns: The derived signal.
    @inlinable
    public func removeDuplicates() -> Signal<Value> {
        removeDuplicates(by: ==)
    }
}
