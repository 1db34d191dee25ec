/// How an observer wants to be called.
@usableFromInline
enum ObserverHandler<Value> {
    /// A user closure subscribed with `observe(_:)`.
    case plain((Value) -> Void)
    /// A user closure subscribed with `observe(owner:_:)`; the entry's `owner` decides whether it still runs.
    case owned((Value) -> Void)
    /// An operator's link to its upstream, which forwards the delivery context.
    case linked((Value, DeliveryContext) -> Void)
}

/// One slot of a signal's observer list. A slot whose handler is nil is a tombstone awaiting compaction.
@usableFromInline
struct ObserverEntry<Value> {
    @usableFromInline let id: Int
    @usableFromInline var handler: ObserverHandler<Value>?
    @usableFromInline weak var owner: AnyObject?

    @inlinable
    init(id: Int, handler: ObserverHandler<Value>, owner: AnyObject?) {
        self.id = id
        self.handler = handler
        self.owner = owner
    }
}

/// Undoes an operator's links to its upstream signals.
@usableFromInline
typealias Teardown = () -> Void
