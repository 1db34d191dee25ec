/// The logic of `zip`: values wait in one queue per input until every input has one, and then leave together, in
/// arrival order, with no signals involved (S16).
///
/// The machine counts what waits in each input's queue and decides when a tuple leaves and when the zip is over;
/// the values themselves wait in ``ZipQueue``s beside it, typed per input.
@usableFromInline
struct ZipMachine {
    /// How many values wait in each input's queue.
    @usableFromInline var waiting: [Int]
    /// Which inputs have finished: once one of them has nothing waiting, no more pairs can form.
    @usableFromInline var finished: [Bool]
    @usableFromInline let limit: Int

    /// - Parameters:
    ///   - inputCount: How many inputs are zipped.
    ///   - limit: The most values that wait per input; the oldest is dropped beyond it.
    @inlinable
    init(inputCount: Int, limit: Int) {
        waiting = Array(repeating: 0, count: inputCount)
        finished = Array(repeating: false, count: inputCount)
        self.limit = max(limit, 1)
    }

    /// Input `input` delivered a value (already queued by the caller); returns whether every input now has one, so
    /// that the caller takes one from each queue and delivers them together.
    @inlinable
    mutating func receive(input: Int) -> Bool {
        if waiting[input] < limit { waiting[input] += 1 }
        for count in waiting where count == 0 { return false }
        for index in waiting.indices { waiting[index] -= 1 }
        return true
    }

    /// Input `input` finished; returns whether the zip is over.
    @inlinable
    mutating func finish(input: Int) -> Bool {
        finished[input] = true
        return isOver
    }

    /// Whether some finished input has nothing waiting: no more values can be paired.
    @inlinable
    var isOver: Bool {
        for index in waiting.indices where finished[index] && waiting[index] == 0 { return true }
        return false
    }
}
