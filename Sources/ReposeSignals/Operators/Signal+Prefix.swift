extension Signal {
    /// A signal that delivers the first `maxLength` values of this signal, then finishes: its observers end by
    /// themselves and their closures are released (S17).
    ///
    /// ```swift
    /// source.signal.prefix(2).observe(owner: self) { model, value in model.note(value) }  // two values, then done
    /// ```
    ///
    /// The count belongs to the signal's connection, as `scan`'s accumulation does: observers that share the signal
    /// share the count, and an observer that subscribes once it has finished connects afresh and gets `maxLength`
    /// values of its own. Operators built on the result finish with it (see <doc:Finishing>).
    ///
    /// - Parameter maxLength: How many values to deliver; zero or less ends every observer as it subscribes.
    /// - Returns: The shortened signal.
    @inlinable
    public func prefix(_ maxLength: Int) -> Signal<Value> {
        prefixing(maxLength: maxLength, while: nil, until: nil as Signal<Value>?)
    }

    /// A signal that delivers the first value of this signal, then finishes; see ``prefix(_:)``.
    ///
    /// ```swift
    /// resource.state.signal.first().observe(owner: self) { screen, state in screen.didLoadOnce(state) }
    /// ```
    ///
    /// - Returns: The signal of the first value.
    @inlinable
    public func first() -> Signal<Value> {
        prefix(1)
    }

    /// A signal that delivers the first value of this signal that satisfies `predicate`, then finishes; see
    /// ``prefix(_:)``.
    ///
    /// - Parameter predicate: Returns true for the value to deliver.
    /// - Returns: The signal of the first matching value.
    @inlinable
    public func first(where predicate: @escaping (Value) -> Bool) -> Signal<Value> {
        filter(predicate).prefix(1)
    }

    /// A signal that delivers the values of this signal while `predicate` holds, and finishes at the first value
    /// that fails it, without delivering that value; see ``prefix(_:)``.
    ///
    /// ```swift
    /// let whileLoading = resource.state.signal.prefix { $0.isLoading }
    /// ```
    ///
    /// - Parameter predicate: Returns true for the values to deliver.
    /// - Returns: The shortened signal.
    @inlinable
    public func prefix(while predicate: @escaping (Value) -> Bool) -> Signal<Value> {
        prefixing(maxLength: .max, while: predicate, until: nil as Signal<Value>?)
    }

    /// The prefix family in one body: at most `maxLength` values (`Int.max`: no limit), while `predicate` holds,
    /// until `other` delivers. The count belongs to the connection, as `dropFirst`'s does.
    @inlinable
    func prefixing<Other>(
        maxLength: Int, while predicate: ((Value) -> Bool)?, until other: Signal<Other>?
    ) -> Signal<Value> {
        Signal { downstream in
            let remaining = OperatorState(max(maxLength, 0))
            guard remaining.value > 0 else {
                downstream.finish()
                return {}
            }
            // Linked first, so that a value `other` delivers as it connects ends the prefix before anything passes.
            let notifier = other?.link(into: downstream, upstreamEnd: .ignored) { _, context in
                guard remaining.value > 0 else { return }
                remaining.value = 0
                downstream.finish(after: context)
            }
            let upstream = self.link(into: downstream) { value, context in
                guard remaining.value > 0 else { return }
                guard predicate?(value) ?? true else {
                    remaining.value = 0
                    return downstream.finish(after: context)
                }
                if remaining.value != .max { remaining.value -= 1 }
                downstream.deliver(value, context)
                if remaining.value == 0 { downstream.finish(after: context) }
            }
            return {
                notifier?()
                upstream()
            }
        }
    }
}
