#if canImport(SwiftUI)
import ReposeSignals
import SwiftUI

// In Repose rather than ReposeSignals, which imports nothing beyond the standard library, Dispatch, Synchronization
// and Observation. Without it, SwiftUI binds all the same through `@Bindable` or a `@State`'s projection
// (`$query.value`): the object is `Observable` with a settable `value`.
extension ObservableMutableState {
    /// A SwiftUI binding that reads and writes the mutable state's `value` (S22).
    ///
    /// ```swift
    /// TextField("Search", text: query.binding)
    /// ```
    @MainActor public var binding: Binding<Value> {
        Bindable(self).value
    }
}
#endif
