extension State {
    /// A state that always holds `value` and never changes.
    ///
    /// Handy as the "nothing selected" branch of ``State/flatMapLatest(_:)``.
    ///
    /// - Parameter value: The value.
    /// - Returns: A constant state.
    public static func constant(_ value: Value) -> State<Value> {
        State(storage: .stored(value), signal: Signal())
    }
}
