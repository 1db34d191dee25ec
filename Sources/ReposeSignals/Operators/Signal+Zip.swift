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
            let queues = (ZipQueue<Value>(limit: bufferLimit), ZipQueue<B>(limit: bufferLimit))
            let box = ZipBox(downstream: downstream, inputs: 2, limit: bufferLimit, queues: queues) {
                queues -> (Value, B)? in
                guard let first = queues.0.popFirst(), let second = queues.1.popFirst() else { return nil }
                return (first, second)
            }
            let first = self.link(into: downstream, upstreamEnd: .handled { box.finished(input: 0) }) {
                value, context in
                box.queues.0.append(value)
                box.received(input: 0, context)
            }
            let second = other.link(into: downstream, upstreamEnd: .handled { box.finished(input: 1) }) {
                value, context in
                box.queues.1.append(value)
                box.received(input: 1, context)
            }
            return {
                first()
                second()
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
            let queues = Array(repeating: ZipQueue<Value>(limit: bufferLimit), count: inputs.count)
            let box = ZipBox(downstream: downstream, inputs: inputs.count, limit: bufferLimit, queues: queues) {
                queues -> [Value]? in
                var values: [Value] = []
                values.reserveCapacity(queues.count)
                for index in queues.indices {
                    if let value = queues[index].popFirst() { values.append(value) }
                }
                return values
            }
            let teardowns = inputs.enumerated().map { index, input in
                input.link(into: downstream, upstreamEnd: .handled { box.finished(input: index) }) { value, context in
                    box.queues[index].append(value)
                    box.received(input: index, context)
                }
            }
            return {
                for teardown in teardowns { teardown() }
            }
        }
    }
}

/// The live state of one connected `zip`: the machine, and one queue per input in `queues` (a tuple of
/// ``ZipQueue``s, or an array of them), from which `take` removes the oldest value of each once every input has one.
@usableFromInline
final class ZipBox<Queues, Output> {
    @usableFromInline let downstream: Signal<Output>
    /// Capture-free, so that a box is one allocation per connection.
    @usableFromInline let take: (inout Queues) -> Output?
    @exclusivity(unchecked) @usableFromInline var machine: ZipMachine
    @exclusivity(unchecked) @usableFromInline var queues: Queues

    @inlinable
    init(
        downstream: Signal<Output>, inputs: Int, limit: Int, queues: Queues, take: @escaping (inout Queues) -> Output?
    ) {
        self.downstream = downstream
        self.take = take
        machine = ZipMachine(inputCount: inputs, limit: limit)
        self.queues = queues
    }

    @inlinable
    func received(input: Int, _ context: DeliveryContext) {
        guard machine.receive(input: input), let values = take(&queues) else { return }
        downstream.deliver(values, context)
        if machine.isOver { downstream.finish(after: context) }
    }

    @usableFromInline
    func finished(input: Int) {
        if machine.finish(input: input) { downstream.finish() }
    }
}
