extension Signal {
    /// How many values of one input a `zip` keeps while they wait for partners, unless told otherwise.
    public static var defaultZipBufferLimit: Int { 64 }

    /// A signal of pairs: the first value of this signal with the first of `other`, the second with the second, and
    /// so on (S16).
    ///
    /// ```swift
    /// let rounds = questions.zip(answers)  // (question 1, answer 1), (question 2, answer 2), …
    /// ```
    ///
    /// A value waits until the other input delivers its partner. At most `bufferLimit` values wait per input; beyond
    /// that the oldest is dropped, so a fast input cannot make memory grow without bound. The queues are emptied
    /// when the signal loses its last observer. The result finishes once an input has finished and nothing of it
    /// waits.
    ///
    /// - Parameters:
    ///   - other: The second input.
    ///   - bufferLimit: The most values that wait per input; ``defaultZipBufferLimit`` (64) unless given.
    /// - Returns: The zipped signal.
    @inlinable
    public func zip<B>(_ other: Signal<B>, bufferLimit: Int = defaultZipBufferLimit) -> Signal<(Value, B)> {
        Signal<(Value, B)> { downstream in
            let box = ZipPair<Value, B>(downstream: downstream, limit: bufferLimit)
            let first = self.link(into: downstream, upstreamEnd: .handled { box.finished(input: 0) }) {
                value, context in
                box.first.append(value)
                box.received(input: 0, context)
            }
            let second = other.link(into: downstream, upstreamEnd: .handled { box.finished(input: 1) }) {
                value, context in
                box.second.append(value)
                box.received(input: 1, context)
            }
            return {
                first()
                second()
                box.reset()
            }
        }
    }

    /// A signal of triples zipped from this signal and two others; see ``zip(_:bufferLimit:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    ///   - bufferLimit: The most values that wait per input.
    /// - Returns: The zipped signal.
    @inlinable
    public func zip<B, C>(
        _ second: Signal<B>, _ third: Signal<C>, bufferLimit: Int = defaultZipBufferLimit
    ) -> Signal<(Value, B, C)> {
        zip(second, bufferLimit: bufferLimit).zip(third, bufferLimit: bufferLimit).map { ($0.0, $0.1, $1) }
    }

    /// A signal of quadruples zipped from this signal and three others; see ``zip(_:bufferLimit:)-method``.
    ///
    /// - Parameters:
    ///   - second: The second input.
    ///   - third: The third input.
    ///   - fourth: The fourth input.
    ///   - bufferLimit: The most values that wait per input.
    /// - Returns: The zipped signal.
    @inlinable
    public func zip<B, C, D>(
        _ second: Signal<B>, _ third: Signal<C>, _ fourth: Signal<D>, bufferLimit: Int = defaultZipBufferLimit
    ) -> Signal<(Value, B, C, D)> {
        zip(second, bufferLimit: bufferLimit).zip(third.zip(fourth, bufferLimit: bufferLimit), bufferLimit: bufferLimit)
            .map { ($0.0, $0.1, $1.0, $1.1) }
    }

    /// A signal of arrays holding the n-th value of every input, in input order; see ``zip(_:bufferLimit:)-method``.
    ///
    /// ```swift
    /// let replies = Signal.zip([first, second, third])
    /// ```
    ///
    /// - Parameters:
    ///   - inputs: Signals of the same type; an empty array gives a signal that never delivers.
    ///   - bufferLimit: The most values that wait per input.
    /// - Returns: The zipped signal.
    @inlinable
    public static func zip(_ inputs: [Signal<Value>], bufferLimit: Int = defaultZipBufferLimit) -> Signal<[Value]> {
        Signal<[Value]> { downstream in
            guard !inputs.isEmpty else { return {} }
            let box = ZipArray<Value>(downstream: downstream, count: inputs.count, limit: bufferLimit)
            let teardowns = inputs.enumerated().map { index, input in
                input.link(into: downstream, upstreamEnd: .handled { box.finished(input: index) }) { value, context in
                    box.queues[index].append(value)
                    box.received(input: index, context)
                }
            }
            return {
                for teardown in teardowns { teardown() }
                box.reset()
            }
        }
    }
}

/// The live state of one connected two-input `zip`.
@usableFromInline
final class ZipPair<A, B> {
    @usableFromInline let downstream: Signal<(A, B)>
    @exclusivity(unchecked) @usableFromInline var machine: ZipMachine
    @exclusivity(unchecked) @usableFromInline var first: ZipQueue<A>
    @exclusivity(unchecked) @usableFromInline var second: ZipQueue<B>

    @inlinable
    init(downstream: Signal<(A, B)>, limit: Int) {
        self.downstream = downstream
        machine = ZipMachine(inputCount: 2, limit: limit)
        first = ZipQueue(limit: limit)
        second = ZipQueue(limit: limit)
    }

    @inlinable
    func received(input: Int, _ context: DeliveryContext) {
        guard machine.receive(input: input), let a = first.popFirst(), let b = second.popFirst() else { return }
        downstream.deliver((a, b), context)
        if machine.isOver { downstream.finish(after: context) }
    }

    @usableFromInline
    func finished(input: Int) {
        if machine.finish(input: input) { downstream.finish() }
    }

    @inlinable
    func reset() {
        machine.reset()
        first.removeAll()
        second.removeAll()
    }
}

/// The live state of one connected array `zip`.
@usableFromInline
final class ZipArray<Value> {
    @usableFromInline let downstream: Signal<[Value]>
    @exclusivity(unchecked) @usableFromInline var machine: ZipMachine
    @exclusivity(unchecked) @usableFromInline var queues: [ZipQueue<Value>]

    @inlinable
    init(downstream: Signal<[Value]>, count: Int, limit: Int) {
        self.downstream = downstream
        machine = ZipMachine(inputCount: count, limit: limit)
        queues = Array(repeating: ZipQueue(limit: limit), count: count)
    }

    @inlinable
    func received(input: Int, _ context: DeliveryContext) {
        guard machine.receive(input: input) else { return }
        var values: [Value] = []
        values.reserveCapacity(queues.count)
        for index in queues.indices {
            if let value = queues[index].popFirst() { values.append(value) }
        }
        downstream.deliver(values, context)
        if machine.isOver { downstream.finish(after: context) }
    }

    @usableFromInline
    func finished(input: Int) {
        if machine.finish(input: input) { downstream.finish() }
    }

    @inlinable
    func reset() {
        machine.reset()
        for index in queues.indices { queues[index].removeAll() }
    }
}
