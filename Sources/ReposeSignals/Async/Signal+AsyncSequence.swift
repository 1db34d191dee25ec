extension Signal where Value: Sendable {
    /// Creates a signal that delivers the elements of `sequence`, iterated in a task while the signal is observed (S21).
    ///
    /// The task starts when the signal gains its first observer and is cancelled when the last one leaves; each new
    /// first observer starts a new iteration (`makeAsyncIterator()`), so a sequence that can be iterated only once,
    /// such as an `AsyncStream`, feeds only the first. Elements are delivered in the isolation domain the signal was
    /// created in (the main actor, typically), which is where its graph lives:
    ///
    /// ```swift
    /// let lines = Signal(file.lines)  // AsyncLineSequence, iterated while observed
    /// lines.observe(owner: self) { model, line in model.append(line) }
    /// ```
    ///
    /// When the sequence ends, the signal finishes: its observers end and their closures are released (see
    /// <doc:Finishing>). An error thrown by the sequence ends it the same way; to see errors, map the sequence's
    /// elements to `Result` values first.
    ///
    /// - Parameters:
    ///   - sequence: The elements to deliver.
    ///   - isolation: The isolation domain of the signal's graph; the caller's, unless given.
    public convenience init<Elements: AsyncSequence & Sendable>(
        _ sequence: Elements, isolation: isolated (any Actor) = #isolation
    ) where Elements.Element == Value {
        let actor = isolation
        self.init(prefix: []) { signal in
            let feed = AsyncSequenceFeed(signal: signal)
            let task = Task { await feed.run(sequence, isolation: actor) }
            return {
                feed.stop()
                task.cancel()
            }
        }
    }
}

/// One iteration of an async sequence feeding a signal.
///
/// While connected, the feed holds the signal, as an operator's link holds the derived signal it feeds: an observer
/// needs to keep nothing but its owner. Disconnecting (the last observer left, or the sequence ended) lets go.
// @unchecked Sendable: `signal` is only touched in the signal's isolation domain: `init` and `stop()` run in the
// connector and its teardown, which run where the graph lives, and `deliver` and `end` are isolated to that domain's
// actor. The iterating task holds the feed only to call those two.
final class AsyncSequenceFeed<Value: Sendable>: @unchecked Sendable {
    /// Nil once stopped: nothing more is delivered, even an element already on its way.
    private var signal: Signal<Value>?

    init(signal: Signal<Value>) {
        self.signal = signal
    }

    /// Iterates `sequence` where the task runs, and hops to `actor` with each element.
    func run<Elements: AsyncSequence>(_ sequence: Elements, isolation actor: any Actor) async
    where Elements.Element == Value {
        do {
            for try await element in sequence {
                await deliver(element, isolation: actor)
            }
        } catch {
            // An error ends the signal like the sequence's end does.
        }
        await end(isolation: actor)
    }

    private func deliver(_ element: Value, isolation: isolated any Actor) {
        signal?.send(element)
    }

    private func end(isolation: isolated any Actor) {
        signal?.finish()
        signal = nil
    }

    /// The last observer left.
    func stop() {
        signal = nil
    }
}
