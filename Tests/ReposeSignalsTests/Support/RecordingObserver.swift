@testable import ReposeSignals

/// Records every value it is given, in order, so a test can check the whole history in one `#expect`.
final class RecordingObserver<Value> {
    private(set) var values: [Value] = []

    var handler: (Value) -> Void {
        { [unowned self] value in self.values.append(value) }
    }

    func record(_ value: Value) {
        values.append(value)
    }

    func removeAll() {
        values.removeAll()
    }
}

/// An object whose only job is to be freed: tests hold it weakly to prove a closure or owner was released.
final class LifetimeProbe {
    func touch() {}
}

/// Stands in for a view or view model that owns observations.
final class StubOwner {}

/// A log shared by several observers, to check the interleaving of deliveries.
final class RecordingLog {
    private(set) var events: [String] = []

    func append(_ event: String) {
        events.append(event)
    }
}

/// Holds an object weakly, so a test can check that it was freed (portable to compilers without `weak let`).
final class WeakReference<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}
