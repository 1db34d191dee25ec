extension Signal {
    /// A signal of pairs: the latest values of this signal and `other`, once both have delivered, then on
    /// every change of either.
    ///
    /// When one change reaches both inputs (for example `a.map(f).combineLatest(a.map(g))`), the pair is
    /// delivered once, after that change has reached every input, never with one side stale (S9).
    ///
    /// ```swift
    /// let form = name.combineLatest(age)  // ("Ada", 36)
    /// ```
    ///
    /// - Parameter other: The second input.
    /// - Returns: The combined signal.
    @inlinable
    public func combineLatest<B>(_ other: Signal<B>) -> Signal<(Value, B)> {
        combiningLatest(other, seed: nil)
    }

    /// A signal of triples of the latest values of this signal and two others; see ``Signal/combineLatest(_:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    /// - Returns: The combined signal.
    @inlinable
    public func combineLatest<B, C>(_ second: Signal<B>, _ third: Signal<C>) -> Signal<(Value, B, C)> {
        combineLatest(second).combineLatest(third).map { ($0.0, $0.1, $1) }
    }

    /// A signal of quadruples of the latest values of this signal and three others; see
    /// ``Signal/combineLatest(_:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    ///   - fourth: The fourth input.
    /// - Returns: The combined signal.
    @inlinable
    public func combineLatest<B, C, D>(
        _ second: Signal<B>, _ third: Signal<C>, _ fourth: Signal<D>
    ) -> Signal<(Value, B, C, D)> {
        combineLatest(second).combineLatest(third.combineLatest(fourth)).map { ($0.0, $0.1, $1.0, $1.1) }
    }

    /// A signal of arrays holding the latest value of each input, in input order, once every input has
    /// delivered, then on every change; see ``Signal/combineLatest(_:)-method``.
    ///
    /// ```swift
    /// let all = Signal.combineLatest([first, second, third])
    /// ```
    ///
    /// - Parameter inputs: Signals of the same type; an empty array gives a signal that never delivers.
    /// - Returns: The combined signal.
    @inlinable
    public static func combineLatest(_ inputs: [Signal<Value>]) -> Signal<[Value]> {
        combiningLatest(inputs, seed: nil)
    }

    /// Two-input combination; `seed` gives both current values up front (combining states).
    @inlinable
    func combiningLatest<B>(_ other: Signal<B>, seed: (() -> (Value, B))?) -> Signal<(Value, B)> {
        Signal<(Value, B)> { downstream in
            let seed = seed?()
            let box = CombineLatestBox(
                downstream: downstream, inputs: 2, latest: (seed?.0, seed?.1), seeded: seed != nil
            ) {
                latest -> (Value, B)? in
                guard let first = latest.0, let second = latest.1 else { return nil }
                return (first, second)
            }
            let first = self.link(into: downstream) { value, context in
                box.latest.0 = value
                box.changed(input: 0, context)
            }
            let second = other.link(into: downstream) { value, context in
                box.latest.1 = value
                box.changed(input: 1, context)
            }
            return {
                first()
                second()
                box.machine.reset()
            }
        }
    }

    /// Array combination; `seed` gives every current value up front (combining states).
    @inlinable
    static func combiningLatest(_ inputs: [Signal<Value>], seed: (() -> [Value])?) -> Signal<[Value]> {
        Signal<[Value]> { downstream in
            let seed = seed?()
            let box = CombineLatestBox(
                downstream: downstream, inputs: inputs.count,
                latest: seed?.map { $0 } ?? Array(repeating: nil, count: inputs.count), seeded: seed != nil
            ) { latest -> [Value]? in
                let values = latest.compactMap { $0 }
                return values.count == latest.count ? values : nil
            }
            let teardowns = inputs.enumerated().map { index, input in
                input.link(into: downstream) { value, context in
                    box.latest[index] = value
                    box.changed(input: index, context)
                }
            }
            return {
                for teardown in teardowns { teardown() }
                box.machine.reset()
            }
        }
    }
}
