/// The values of a ``Signal`` or ``State`` as an `AsyncSequence` (S14).
///
/// Iteration subscribes when it starts and buffers values that arrive while the loop body runs. The sequence ends
/// when the signal ends its observers, because it finished (``Signal/prefix(_:)`` took its count) or its source went
/// away; most signals never do: cancel the iterating task (or leave the loop) to stop.
///
/// ```swift
/// for await query in model.query.values {
///     await search(query)
/// }
/// ```
///
/// The subscription belongs to the signal's isolation domain, so it is removed there: at the signal's next
/// delivery after the task is cancelled or the iterator is released, or when the signal's source goes away.
public struct SignalValues<Value: Sendable>: AsyncSequence {
    /// The type of values the sequence yields.
    public typealias Element = Value

    @usableFromInline let subscribe: (@escaping (Value) -> Void) -> Subscription

    @usableFromInline
    init(subscribe: @escaping (@escaping (Value) -> Void) -> Subscription) {
        self.subscribe = subscribe
    }

    /// Subscribes and returns the iterator that yields the values.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        // Captured by the observer so that the sequence ends when the signal ends the observer (it finished, or its
        // source went away): released with the closure, it finishes the stream.
        let ending = StreamFinisher(continuation)
        var subscription: Subscription?
        subscription = subscribe { [ending] value in
            if case .terminated = ending.continuation.yield(value) {
                // The iteration is over (task cancelled or iterator gone): end the subscription from here, in the
                // signal's own isolation domain.
                subscription?.cancel()
                subscription = nil
            }
        }
        return Iterator(base: stream.makeAsyncIterator(), finisher: StreamFinisher(continuation))
    }

    /// Yields the values of the signal as they arrive.
    // @unchecked Sendable: an iterator is consumed by one task at a time (its for-await loop), which is also what
    // the underlying AsyncStream requires; sending it to that task is the only crossing it makes.
    public struct Iterator: AsyncIteratorProtocol, @unchecked Sendable {
        var base: AsyncStream<Value>.Iterator
        let finisher: StreamFinisher<Value>

        /// The next value, or nil once the iterating task is cancelled.
        public mutating func next() async -> Value? {
            await base.next()
        }

        /// The next value, or nil once the iterating task is cancelled; runs in the caller's isolation.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
            await base.next(isolation: actor)
        }
    }
}

/// Finishes the stream when the iterator goes away, so that the next delivery ends the subscription.
final class StreamFinisher<Value: Sendable>: Sendable {
    let continuation: AsyncStream<Value>.Continuation

    init(_ continuation: AsyncStream<Value>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }
}

extension Signal where Value: Sendable {
    /// The values of this signal as an `AsyncSequence`, from the moment iteration starts.
    public var values: SignalValues<Value> {
        SignalValues { handler in self.observe(handler) }
    }
}

extension State where Value: Sendable {
    /// The current value and then every change of this state, as an `AsyncSequence`.
    public var values: SignalValues<Value> {
        SignalValues { handler in self.observe(handler) }
    }
}
