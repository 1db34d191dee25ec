extension Signal {
    /// A signal that delivers the values of this signal unchanged and calls the given closures as it connects,
    /// delivers, finishes and disconnects: a tap for debugging or side effects that changes nothing (S23).
    ///
    /// ```swift
    /// let traced = results.handleEvents(
    ///     receiveSubscription: { print("searching") },
    ///     receiveOutput: { print("results: \($0.count)") },
    ///     receiveCancel: { print("nobody is looking any more") })
    /// ```
    ///
    /// The closures run per connection, not per observer: `receiveSubscription` when the signal gains its first
    /// observer, `receiveCancel` when the last one leaves, `receiveCompletion` instead when this signal finishes (see
    /// <doc:Finishing>). `receiveOutput` runs once per value, before any observer receives it. Repose's
    /// `print(_:)` writes the same events to the library's log.
    ///
    /// - Parameters:
    ///   - receiveSubscription: Called when the signal connects.
    ///   - receiveOutput: Called with each value.
    ///   - receiveCompletion: Called when this signal finishes.
    ///   - receiveCancel: Called when the signal disconnects because its last observer left.
    /// - Returns: The same values.
    @inlinable
    public func handleEvents(
        receiveSubscription: (() -> Void)? = nil, receiveOutput: ((Value) -> Void)? = nil,
        receiveCompletion: (() -> Void)? = nil, receiveCancel: (() -> Void)? = nil
    ) -> Signal<Value> {
        Signal { downstream in
            var isFinished = false
            receiveSubscription?()
            let end = UpstreamEnd.handled {
                isFinished = true
                receiveCompletion?()
                downstream.finish()
            }
            let upstream = self.link(into: downstream, upstreamEnd: end) { value, context in
                receiveOutput?(value)
                downstream.deliver(value, context)
            }
            return {
                upstream()
                if !isFinished { receiveCancel?() }
            }
        }
    }
}
