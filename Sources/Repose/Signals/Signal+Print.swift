import ReposeSignals

extension Signal {
    /// A signal that delivers the values of this signal unchanged and writes what it sees to Repose's log: a debug
    /// tap (S23).
    ///
    /// ```swift
    /// ReposeLog.enabled.insert(.signals)
    /// let results = query.signal.print("query").debounce(for: .milliseconds(300), scheduler: MainScheduler())
    /// // [Repose:signals] query: connected
    /// // [Repose:signals] query: value "swift"
    /// ```
    ///
    /// Each line goes through ``ReposeLog/messageHandler`` under the ``ReposeLog/Category/signals`` category, which
    /// is off until you enable it (it is part of ``ReposeLog/Category/detailed`` and ``ReposeLog/Category/all``), so
    /// a tap left in a release build writes nothing and costs one check per value. Lines are redacted like every
    /// line Repose writes: a URL in a value's description shows as ``ReposeLog/describe(url:)`` shows it.
    ///
    /// The tap sees the signal's connection (its first observer), each value, its end if it finishes, and its
    /// disconnection; it changes nothing in what observers receive or when (see `handleEvents`).
    ///
    /// - Parameter prefix: Starts each line, to tell taps apart; `signal` when empty.
    /// - Returns: The same values.
    public func print(_ prefix: String = "") -> Signal<Value> {
        let label = prefix.isEmpty ? "signal" : prefix
        return handleEvents(
            receiveSubscription: { ReposeLog.log(.signals, "\(label): connected") },
            receiveOutput: { value in ReposeLog.log(.signals, "\(label): value \(ReposeLog.describe(tapped: value))") },
            receiveCompletion: { ReposeLog.log(.signals, "\(label): finished") },
            receiveCancel: { ReposeLog.log(.signals, "\(label): disconnected") })
    }
}

extension State {
    /// A state with the same value whose changes are written to Repose's log, as ``Signal/print(_:)`` writes them: a
    /// debug tap (S23).
    ///
    /// ```swift
    /// let profile = user.autoloadingState().print("profile")
    /// ```
    ///
    /// Observing it replays the current value without a line; each change is written as it is delivered.
    ///
    /// - Parameter prefix: Starts each line, to tell taps apart; `state` when empty.
    /// - Returns: The same state, tapped.
    public func print(_ prefix: String = "") -> State<Value> {
        State(read: { self.value }, changes: signal.print(prefix.isEmpty ? "state" : prefix))
    }
}

extension ReposeLog {
    /// A tapped value as a log line shows it: its description, with any URL in it redacted.
    static func describe(tapped value: some Any) -> String {
        redactingURLs(in: String(reflecting: value))
    }
}
