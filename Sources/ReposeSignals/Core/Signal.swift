/// A multicast stream of values that never fails and never completes.
///
/// A signal delivers each value synchronously to every observer, in the order they subscribed. Errors travel as
/// ordinary values (for example a `Result`). Create a root signal with a ``SignalSource``; derive new signals with
/// operators such as ``Signal/map(_:)`` or ``Signal/combineLatest(_:)-method``.
///
/// ```swift
/// let clicks = SignalSource<Int>()
/// let subscription = clicks.signal.map { $0 * 2 }.observe { print($0) }
/// clicks.send(21)  // prints 42
/// ```
///
/// A derived signal is lazy: it subscribes to its upstream signals when it gains its first observer and
/// unsubscribes when it loses the last one.
///
/// Signals are not thread-safe: a signal graph lives in one isolation domain (typically the main actor). The
/// types are therefore not `Sendable`; the compiler keeps a graph from crossing domains.
public final class Signal<Value> {
    @exclusivity(unchecked) @usableFromInline var entries: ContiguousArray<ObserverEntry<Value>> = []
    @exclusivity(unchecked) @usableFromInline var nextID = 0
    @exclusivity(unchecked) @usableFromInline var liveCount = 0
    @exclusivity(unchecked) @usableFromInline var tombstones = 0
    @exclusivity(unchecked) @usableFromInline var isDelivering = false
    /// Values that arrived while this signal was delivering (S4); delivered in order afterwards.
    @exclusivity(unchecked) @usableFromInline var backlog: ContiguousArray<(Value, DeliveryContext)> = []
    /// The index of the observer a delivery is calling, or -1. A delivery holds no reference to the box it calls,
    /// so an observer ended during its own call must outlive the call.
    @exclusivity(unchecked) @usableFromInline var runningIndex = -1
    /// The box of an observer that ended during its own call; released as soon as the call returns.
    @exclusivity(unchecked) @usableFromInline var retiredWhileRunning: ObserverBox<Value>?
    /// Connects a derived signal to its upstream signals; nil for a root signal.
    @usableFromInline let connector: ((Signal<Value>) -> Teardown)?
    @exclusivity(unchecked) @usableFromInline var teardown: Teardown?
    /// Values delivered to each new observer before anything else (used by `prepend`).
    @usableFromInline let prefix: ContiguousArray<Value>
    /// The context used when this signal itself originates a delivery; a `let`, so sending retains nothing.
    @usableFromInline let originContext = DeliveryContext()
    /// Whether ``finish()`` was called while delivering or connecting: the observers end once that is over.
    @exclusivity(unchecked) @usableFromInline var isFinishing = false
    /// Whether the connector is running.
    @exclusivity(unchecked) @usableFromInline var isConnecting = false
    /// How many of the upstreams linked with ``UpstreamEnd/counts`` have not finished; the last one finishes this
    /// signal. Reset when disconnecting.
    @exclusivity(unchecked) @usableFromInline var unfinishedUpstreams = 0

    /// Creates a root signal, or with a connector a derived one.
    @usableFromInline
    init(prefix: ContiguousArray<Value> = [], connector: ((Signal<Value>) -> Teardown)? = nil) {
        self.connector = connector
        self.prefix = prefix
    }

    /// The number of live observers and links; for tests and diagnostics.
    var observerCount: Int { liveCount }

    /// Whether this signal is currently subscribed to its upstream signals.
    var isConnected: Bool { teardown != nil }
}

extension Signal {
    /// Observes every value this signal delivers until the returned subscription is cancelled or released.
    ///
    /// Keep the subscription for as long as you want values:
    ///
    /// ```swift
    /// subscription = signal.observe { value in print(value) }
    /// ```
    ///
    /// - Parameter handler: Called synchronously with each value.
    /// - Returns: A ``Subscription`` that ends observation on ``Subscription/cancel()`` or when it is released.
    @inlinable
    public func observe(_ handler: @escaping (Value) -> Void) -> Subscription {
        subscription(for: register(ClosureBox(handler)), endsOnRelease: true)
    }

    /// Observes every value this signal delivers for as long as `owner` is alive.
    ///
    /// The owner is held weakly and the handler strongly. Once the owner is gone the handler is never called
    /// again; it is released at the signal's next delivery at the latest. The returned subscription may be
    /// ignored: releasing it does not end observation, but ``Subscription/cancel()`` does.
    ///
    /// Because the handler is held for as long as the owner lives, a handler that captures the owner strongly
    /// keeps it alive for ever. When the handler needs the owner, use ``observe(owner:_:)-(Owner,_)``, which
    /// passes it in:
    ///
    /// ```swift
    /// signal.observe(owner: self) { value in print(value) }            // does not touch the owner
    /// signal.observe(owner: self) { owner, value in owner.show(value) } // receives it instead
    /// ```
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation.
    ///   - handler: Called synchronously with each value.
    /// - Returns: A ``Subscription`` that can end observation early.
    @inlinable
    @discardableResult
    public func observe(owner: AnyObject, _ handler: @escaping (Value) -> Void) -> Subscription {
        subscription(for: register(OwnedClosureBox(handler, owner: owner)), endsOnRelease: false)
    }

    /// Observes every value this signal delivers for as long as `owner` is alive, handing the owner to the handler.
    ///
    /// This is the form to use when the handler works on its owner, a view model updating itself say: the handler
    /// receives the owner with each value, so it need not capture it, and the owner is free to go. The owner is held
    /// weakly and the handler strongly; once the owner is gone the handler is never called again and is released at
    /// the signal's next delivery at the latest. The returned subscription may be ignored: releasing it does not end
    /// observation, but ``Subscription/cancel()`` does.
    ///
    /// ```swift
    /// final class Counter {
    ///     var total = 0
    ///     init(taps: Signal<Int>) {
    ///         taps.observe(owner: self) { counter, value in counter.total += value }
    ///     }
    /// }
    /// ```
    ///
    /// On a signal of tuples, a two-parameter closure is this form: its first parameter is the owner.
    ///
    /// - Parameters:
    ///   - owner: The object whose lifetime bounds the observation, passed to `handler` with each value.
    ///   - handler: Called synchronously with the owner and each value.
    /// - Returns: A ``Subscription`` that can end observation early.
    @inlinable
    @discardableResult
    public func observe<Owner: AnyObject>(
        owner: Owner, _ handler: @escaping (_ owner: Owner, _ value: Value) -> Void
    ) -> Subscription {
        subscription(for: register(OwnerPassingBox(handler, owner: owner)), endsOnRelease: false)
    }

    /// Adds an operator's link to this signal and returns how to remove it.
    ///
    /// - Parameters:
    ///   - downstream: The signal the link feeds, if it lives only while observed: sweeping this signal for dead
    ///     owners sweeps it too (see ``endObserversWithDeadOwners()``). `nil` for a link that lives as long as
    ///     its target object (a held state).
    ///   - upstreamEnd: What happens downstream when this signal finishes; by default the downstream finishes once
    ///     all its counted upstreams have.
    ///   - handler: Receives each value and its delivery context.
    @inlinable
    func link(
        into downstream: (any DownstreamSignal)?, upstreamEnd: UpstreamEnd = .counts,
        _ handler: @escaping (Value, DeliveryContext) -> Void
    ) -> Teardown {
        if case .counts = upstreamEnd { downstream?.upstreamLinked() }
        let id = register(LinkBox(handler, downstream: downstream, upstreamEnd: upstreamEnd))
        return { self.removeObserver(id) }
    }
}
