/// Carries a value that is not `Sendable` (typically parsed content of type `Any`) across one isolation
/// boundary.
///
/// Safe because of how Repose uses it: a value is produced on one side (the parsing task), wrapped, handed over
/// exactly once, and never touched again by the side that produced it.
struct UncheckedTransfer<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}
