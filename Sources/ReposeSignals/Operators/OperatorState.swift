/// The state one connection of an operator keeps between values (a count, the previous value, a machine).
///
/// A variable captured by the operator's closure would do, but each access to it is checked for exclusivity at run
/// time, which costs more than the operator's own work; this box's field opts out, as the observer list's fields do.
/// Safe: a signal graph lives in one isolation domain, and an operator never holds an access to its state across a
/// delivery (it reads or updates the state, then delivers).
@usableFromInline
final class OperatorState<Value> {
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
