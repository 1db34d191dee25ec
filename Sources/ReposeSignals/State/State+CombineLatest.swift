extension State {
    /// A state whose value pairs this state's value with `other`'s; its observers hear every change of either.
    ///
    /// One change reaching both inputs is delivered once, never with one side stale (S9).
    ///
    /// - Parameter other: The second input.
    /// - Returns: The combined state.
    public func combineLatest<B>(_ other: State<B>) -> State<(Value, B)> {
        State<(Value, B)>(
            storage: .derived { (self.value, other.value) },
            signal: signal.combiningLatest(other.signal, seed: { (self.value, other.value) }))
    }

    /// A state combining this state's value with two others'; see ``State/combineLatest(_:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    /// - Returns: The combined state.
    public func combineLatest<B, C>(_ second: State<B>, _ third: State<C>) -> State<(Value, B, C)> {
        combineLatest(second).combineLatest(third).map { ($0.0, $0.1, $1) }
    }

    /// A state combining this state's value with three others'; see ``State/combineLatest(_:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    ///   - fourth: The fourth input.
    /// - Returns: The combined state.
    public func combineLatest<B, C, D>(
        _ second: State<B>, _ third: State<C>, _ fourth: State<D>
    ) -> State<(Value, B, C, D)> {
        combineLatest(second).combineLatest(third.combineLatest(fourth)).map { ($0.0, $0.1, $1.0, $1.1) }
    }

    /// A state whose value is the array of the inputs' values, in input order; see ``State/combineLatest(_:)-method``.
    ///
    /// ```swift
    /// let allReady = State.combineLatest([first, second]).map { $0.allSatisfy { $0 } }
    /// ```
    ///
    /// - Parameter inputs: States of the same type; an empty array gives a constant empty array.
    /// - Returns: The combined state.
    public static func combineLatest(_ inputs: [State<Value>]) -> State<[Value]> {
        let current = { inputs.map(\.value) }
        return State<[Value]>(
            storage: .derived(current),
            signal: Signal.combiningLatest(inputs.map(\.signal), seed: current))
    }
}
