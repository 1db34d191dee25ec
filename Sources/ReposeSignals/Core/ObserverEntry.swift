/// Which box an observer lives in, and so how a delivery calls it.
@usableFromInline
enum ObserverKind: UInt8 {
    /// A user closure subscribed with `observe(_:)`, in a `ClosureBox`.
    case plain
    /// A user closure subscribed with `observe(owner:_:)`, in an `OwnedClosureBox`.
    case owned
    /// A user closure that receives its owner, subscribed with the two-parameter `observe(owner:_:)`, in an
    /// `OwnerPassingBox`.
    case ownerPassing
    /// An operator's link to its upstream, which forwards the delivery context, in a `LinkBox`.
    case linked
}

/// One observer's handler, in an object of its own so that a delivery can call it without retaining it.
///
/// Reading a closure out of an array element, or out of an enum payload, retains its context: two atomic
/// operations per observer per value. Calling a `let` closure of an object reached through an `Unmanaged`
/// reference retains nothing. The signal owns each box through its entry and calls it through the entry's
/// unmanaged copy. One final subclass per kind; `kind` says which, so a delivery downcasts without a dynamic check.
@usableFromInline
class ObserverBox<Value> {
    @usableFromInline let kind: ObserverKind

    @inlinable
    init(kind: ObserverKind) {
        self.kind = kind
    }
}

/// Holds a user's observer closure.
@usableFromInline
final class ClosureBox<Value>: ObserverBox<Value> {
    @usableFromInline let handler: (Value) -> Void

    @inlinable
    init(_ handler: @escaping (Value) -> Void) {
        self.handler = handler
        super.init(kind: .plain)
    }
}

/// Holds a user's observer closure and, weakly, the owner whose lifetime bounds it. A box of its own, so that
/// plain observers pay nothing for the weak reference.
@usableFromInline
final class OwnedClosureBox<Value>: ObserverBox<Value> {
    @usableFromInline let handler: (Value) -> Void
    /// Written only by `init`.
    @exclusivity(unchecked) @usableFromInline weak var owner: AnyObject?

    @inlinable
    init(_ handler: @escaping (Value) -> Void, owner: AnyObject) {
        self.handler = handler
        self.owner = owner
        super.init(kind: .owned)
    }
}

/// What delivery needs of an observer whose closure receives its owner: the owner, weakly, and how to call the
/// closure. The closure's type names the owner's type, which delivery does not know, so it lives in the generic
/// subclass ``OwnerPassingBox`` and is reached through `invoke`.
@usableFromInline
class OwnerPassingBoxBase<Value>: ObserverBox<Value> {
    /// Written only by `init`.
    @exclusivity(unchecked) @usableFromInline weak var owner: AnyObject?
    /// Calls the subclass's closure with the owner and a value. Capture-free and formed in specialised code, as
    /// a deferred emission is: calling it allocates nothing and runs specialised code.
    @usableFromInline let invoke: (ObserverBox<Value>, AnyObject, Value) -> Void

    @inlinable
    init(owner: AnyObject, invoke: @escaping (ObserverBox<Value>, AnyObject, Value) -> Void) {
        self.owner = owner
        self.invoke = invoke
        super.init(kind: .ownerPassing)
    }
}

/// Holds a user's observer closure that receives its owner, so that the closure need not capture the owner.
@usableFromInline
final class OwnerPassingBox<Value, Owner: AnyObject>: OwnerPassingBoxBase<Value> {
    @usableFromInline let handler: (Owner, Value) -> Void

    @inlinable
    init(_ handler: @escaping (Owner, Value) -> Void, owner: Owner) {
        self.handler = handler
        super.init(owner: owner) { box, owner, value in
            // Safe: this box was made with an owner of type `Owner`, and `owner` is that object, read from the box.
            unsafeDowncast(box, to: OwnerPassingBox<Value, Owner>.self).handler(
                unsafeDowncast(owner, to: Owner.self), value)
        }
    }
}

/// Holds an operator's link to its upstream.
@usableFromInline
final class LinkBox<Value>: ObserverBox<Value> {
    @usableFromInline let handler: (Value, DeliveryContext) -> Void
    /// The derived signal this link feeds, for sweeping dead owners downstream and for telling it that its upstream
    /// finished; deliveries never read it. Written only by `init`.
    @exclusivity(unchecked) @usableFromInline weak var downstream: (any DownstreamSignal)?
    /// What the link does when the signal it listens to finishes.
    @usableFromInline let upstreamEnd: UpstreamEnd

    @inlinable
    init(
        _ handler: @escaping (Value, DeliveryContext) -> Void, downstream: (any DownstreamSignal)?,
        upstreamEnd: UpstreamEnd
    ) {
        self.handler = handler
        self.downstream = downstream
        self.upstreamEnd = upstreamEnd
        super.init(kind: .linked)
    }

    /// Carries out ``upstreamEnd``: the signal this link listens to has finished.
    @usableFromInline
    func upstreamFinished() {
        switch upstreamEnd {
        case .counts: downstream?.upstreamFinished()
        case .ignored: break
        case .handled(let handler): handler()
        }
    }
}

/// What an operator's link does when the signal it listens to finishes, that is ends its observers because it can
/// deliver nothing more (a `prefix` that took its count, a released source).
@usableFromInline
enum UpstreamEnd {
    /// The derived signal finishes once every upstream it links to this way has finished (`map` has one, `merge`
    /// several).
    case counts
    /// Nothing happens: the derived signal can still deliver without this input (a `flatMapLatest` inner signal,
    /// the other side of `withLatestFrom`).
    case ignored
    /// The operator decides, for example a time operator that first delivers what it still holds.
    case handled(() -> Void)
}

/// A derived signal, as the links into it see it.
@usableFromInline
protocol DownstreamSignal: AnyObject {
    /// Ends observers whose owner is gone, here and in the derived signals fed from here.
    func endObserversWithDeadOwners()
    /// Counts a new link that finishes this signal when its upstream finishes (``UpstreamEnd/counts``).
    func upstreamLinked()
    /// One of the counted upstreams finished; the last one finishes this signal.
    func upstreamFinished()
}

/// One slot of a signal's observer list. A slot whose box is nil is a tombstone awaiting compaction.
@usableFromInline
struct ObserverEntry<Value> {
    @usableFromInline let id: Int
    /// Owns the observer's box; nil once the observer has ended.
    @usableFromInline var box: ObserverBox<Value>?
    /// The same box, not owned: what a delivery reads, so that reading it retains nothing. Nil exactly when `box`
    /// is nil.
    @usableFromInline var unmanaged: Unmanaged<ObserverBox<Value>>?

    @inlinable
    init(id: Int, box: ObserverBox<Value>) {
        self.id = id
        self.box = box
        self.unmanaged = Unmanaged.passUnretained(box)
    }
}

/// Undoes an operator's links to its upstream signals.
@usableFromInline
typealias Teardown = () -> Void
