import Observation

/// A ``State`` as an `@Observable` object: SwiftUI views and `withObservationTracking` read ``value`` and are told
/// when it changes (S22).
///
/// ```swift
/// struct CounterView: View {
///     @State private var count = ObservableState(model.count)
///     var body: some View { Text("\(count.value)") }
/// }
/// ```
///
/// The object observes the state for as long as it lives, and its observation ends with it: keep it where the view
/// keeps its state, or in a view model, and the observation ends when that lets go. For a ``MutableState`` that a
/// view also writes, use ``ObservableMutableState``.
@Observable
public final class ObservableState<Value> {
    /// The state's current value; setting the state updates it synchronously.
    public private(set) var value: Value
    /// Ends the observation when released with this object.
    @ObservationIgnored private var subscription: Subscription?

    /// Mirrors `state`, starting from its current value.
    ///
    /// - Parameter state: The state to mirror.
    public init(_ state: State<Value>) {
        value = state.value
        subscription = state.signal.observe { [unowned self] value in self.value = value }
    }
}
