/// A read-only current value plus a signal of its changes.
///
/// Observing a state replays its current value at once, then delivers every change:
///
/// ```swift
/// let count = MutableState(1)
/// let subscription = count.state.observe { print($0) }  // prints 1
/// count.value = 2                                       // prints 2
/// ```
///
/// Get a state from a ``MutableState``, from ``Signal/hold(initial:)``, or by deriving one with
/// ``State/map(_:)``, ``State/combineLatest(_:)-method`` or ``State/removeDuplicates()``. A derived state computes its
/// value from its inputs each time you read it, so keep its transforms cheap and free of side effects.
public final class State<Value> {
    @usableFromInline
    enum Storage {
        case stored(Value)
        case derived(() -> Value)
    }

    @usableFromInline var storage: Storage
    /// Keeps a held state subscribed to the signal it holds.
    @usableFromInline var upstream: Teardown?

    /// The changes of this state, without the replay of the current value.
    public let signal: Signal<Value>

    @usableFromInline
    init(storage: Storage, signal: Signal<Value>) {
        self.storage = storage
        self.signal = signal
    }

    deinit {
        upstream?()
    }

    /// Stores a new value; the old one is released only after the write, since its deinit may read this state.
    @inlinable
    func replaceStoredValue(_ newValue: Value) {
        let old = storage
        storage = .stored(newValue)
        withExtendedLifetime(old) {}
    }

    /// The current value.
    @inlinable
    public var value: Value {
        switch storage {
        case .stored(let value): value
        case .derived(let compute): compute()
        }
    }

    /// Observes the current value at once and then every change, until the subscription is cancelled or released.
    ///
    /// - Parameter handler: Called with the current value before this method returns, then with each change.
    /// - Returns: A ``Subscription`` that ends observation on ``Subscription/cancel()`` or when it is released.
    @inlinable
    public func observe(_ handler: @escaping (Value) -> Void) -> Subscription {
        let id = signal.register(ClosureBox(handler)) { value }
        return signal.subscription(for: id, endsOnRelease: true)
    }

    /// Observes the current value at once and then every change, for as long as `owner` is alive.
    ///
    /// The owner is held weakly and the handler strongly, so a handler that captures the owner strongly keeps it
    /// alive for ever; when the handler needs the owner, use ``observe(owner:_:)-(Owner,_)``, which passes it in.
    /// See ``Signal/observe(owner:_:)-(AnyObject,_)``.
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation.
    ///   - handler: Called with the current value before this method returns, then with each change.
    /// - Returns: A ``Subscription`` that can end observation early.
    @inlinable
    @discardableResult
    public func observe(owner: AnyObject, _ handler: @escaping (Value) -> Void) -> Subscription {
        let id = signal.register(OwnedClosureBox(handler, owner: owner)) { value }
        return signal.subscription(for: id, endsOnRelease: false)
    }

    /// Observes the current value at once and then every change, for as long as `owner` is alive, handing the owner
    /// to the handler.
    ///
    /// Use it when the handler works on its owner: it receives the owner with each value instead of capturing it,
    /// so the owner is free to go, and the observation ends with it. See ``Signal/observe(owner:_:)-(Owner,_)``.
    ///
    /// ```swift
    /// name.observe(owner: self) { model, name in model.title = "Hello, \(name)" }
    /// ```
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation, passed to `handler` with each value.
    ///   - handler: Called with the owner and the current value before this method returns, then with each change.
    /// - Returns: A ``Subscription`` that can end observation early.
    @inlinable
    @discardableResult
    public func observe<Owner: AnyObject>(
        owner: Owner, _ handler: @escaping (_ owner: Owner, _ value: Value) -> Void
    ) -> Subscription {
        let id = signal.register(OwnerPassingBox(handler, owner: owner)) { value }
        return signal.subscription(for: id, endsOnRelease: false)
    }
}
