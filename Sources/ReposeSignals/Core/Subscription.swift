/// A handle on one observation of a ``Signal`` or ``State``.
///
/// A subscription from ``Signal/observe(_:)`` ends when you call ``cancel()`` or release it. A subscription from
/// ``Signal/observe(owner:_:)`` ends when its owner goes away or on ``cancel()``; releasing it changes nothing.
/// Cancelling releases the observer's closure at once; cancelling again does nothing.
public final class Subscription {
    @usableFromInline var host: (any ObserverHost)?
    @usableFromInline let id: Int
    @usableFromInline let endsOnRelease: Bool

    @inlinable
    init(host: any ObserverHost, id: Int, endsOnRelease: Bool) {
        self.host = host
        self.id = id
        self.endsOnRelease = endsOnRelease
    }

    deinit {
        if endsOnRelease { cancel() }
    }

    /// Whether this subscription has been cancelled.
    public var isCancelled: Bool { host == nil }

    /// Ends the observation; the observer is not called again. Harmless to call more than once.
    @inlinable
    public func cancel() {
        guard let host else { return }
        self.host = nil
        host.removeObserver(id)
    }
}
