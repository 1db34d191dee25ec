/// A current value you can set, whose changes its observers receive.
///
/// Hand out the read-only ``state`` and keep the mutable state to yourself:
///
/// ```swift
/// @MainActor final class SearchModel {
///     private let queryStorage = MutableState("")
///     var query: State<String> { queryStorage.state }
///     func type(_ text: String) { queryStorage.value = text }
/// }
/// ```
///
/// Every assignment notifies observers, even of an equal value; add ``State/removeDuplicates()`` downstream to
/// skip those.
public final class MutableState<Value> {
    /// The read-only view of this value.
    public let state: State<Value>

    /// Creates a mutable state holding `value`.
    ///
    /// - Parameter value: The initial value.
    @inlinable
    public init(_ value: Value) {
        state = State(storage: .stored(value), signal: Signal())
    }

    deinit {
        // Nothing can change the value any more, so current observers would never be called again.
        state.signal.terminate()
    }

    /// The current value; setting it notifies every observer synchronously.
    ///
    /// A value set from inside an observer is stored at once and delivered after the current delivery.
    @inlinable
    public var value: Value {
        get { state.value }
        set {
            state.replaceStoredValue(newValue)
            state.signal.send(newValue)
        }
    }
}
