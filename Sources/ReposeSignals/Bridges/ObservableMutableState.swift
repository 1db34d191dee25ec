import Observation

/// A ``MutableState`` as an `Observable` object with a two-way ``value``: views read it as they read an
/// ``ObservableState`` and write it back (S22).
///
/// SwiftUI binds to it like to any observable object, with `@Bindable` or the projection of a `@State`:
///
/// ```swift
/// struct SearchField: View {
///     @State private var query = ObservableMutableState(model.query)
///     var body: some View { TextField("Search", text: $query.value) }
/// }
/// ```
///
/// Writing ``value`` sets the mutable state, whose observers hear it at once; reading it reads the mirror, so
/// observation tracking sees every change, whoever made it. The observation ends when the object goes away.
public final class ObservableMutableState<Value>: Observable {
    /// The mutable state this object reads and writes.
    public let mutableState: MutableState<Value>
    private let mirror: ObservableState<Value>

    /// Mirrors `mutableState` and writes to it.
    ///
    /// - Parameter mutableState: The mutable state to read and write.
    public init(_ mutableState: MutableState<Value>) {
        self.mutableState = mutableState
        mirror = ObservableState(mutableState.state)
    }

    /// The current value; setting it sets the mutable state.
    public var value: Value {
        get { mirror.value }
        set { mutableState.value = newValue }
    }
}
