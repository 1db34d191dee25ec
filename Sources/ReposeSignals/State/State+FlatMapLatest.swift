extension State {
    /// A state that follows the inner state chosen by `transform` for this state's current value, switching
    /// whenever this state changes.
    ///
    /// Switching drops the subscription to the previous inner state at once, and delivers the new inner state's
    /// current value. Use it for dependent data, such as a user's repositories whose URL is in the user's JSON:
    ///
    /// ```swift
    /// let repositories = user.state.flatMapLatest { user in
    ///     service.resource(absoluteURL: user.jsonDict["repos_url"] as? String).state
    /// }
    /// ```
    ///
    /// - Parameter transform: Chooses the inner state for a value of this state.
    /// - Returns: A state whose value is the current inner state's value.
    public func flatMapLatest<T>(_ transform: @escaping (Value) -> State<T>) -> State<T> {
        let changes = Signal<T> { send in
            var inner = transform(self.value).signal.observe(send)
            let outer = self.signal.observe { value in
                inner.cancel()
                let next = transform(value)
                inner = next.signal.observe(send)
                send(next.value)
            }
            return {
                outer.cancel()
                inner.cancel()
            }
        }
        return State<T>(read: { transform(self.value).value }, changes: changes)
    }
}
