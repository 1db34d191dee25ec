extension Signal {
    /// A signal that delivers the values of this signal until `other` delivers a value, then finishes: its observers
    /// end by themselves and their closures are released (S17).
    ///
    /// ```swift
    /// positions.prefix(untilOutputFrom: dragEnded).observe(owner: self) { view, point in view.move(to: point) }
    /// ```
    ///
    /// If `other` finishes without a value, this signal goes on. Both are subscribed while the result is observed;
    /// `other` first, so a value it delivers as it connects (a state's signal, a `prepend`) ends the result before
    /// anything passes. See ``prefix(_:)`` for how the result is shared and restarted.
    ///
    /// - Parameter other: The signal whose first value ends this one.
    /// - Returns: The shortened signal.
    @inlinable
    public func prefix<Other>(untilOutputFrom other: Signal<Other>) -> Signal<Value> {
        prefixing(maxLength: .max, while: nil, until: other)
    }
}
