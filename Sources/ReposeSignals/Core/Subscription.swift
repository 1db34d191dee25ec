/// A handle on one observation of a ``Signal`` or ``State``.
///
/// A subscription from ``Signal/observe(_:)`` ends when you call ``cancel()`` or release it. A subscription from
/// either form of `observe(owner:_:)` ends when its owner goes away or on ``cancel()``; releasing it changes nothing.
/// Cancelling releases the observer's closure at once (from inside that closure, as soon as it returns); cancelling
/// again does nothing.
public final class Subscription {
    @exclusivity(unchecked) @usableFromInline var host: AnyObject?
    @usableFromInline let id: Int
    @usableFromInline let endsOnRelease: Bool
    /// Removes observer `id` from `host`. Formed in the caller's specialised code and capturing nothing, so it
    /// costs no allocation and cancelling runs specialised code rather than the generic implementation.
    @usableFromInline let remove: (AnyObject, Int) -> Void

    @inlinable
    init(host: AnyObject, id: Int, endsOnRelease: Bool, remove: @escaping (AnyObject, Int) -> Void) {
        self.host = host
        self.id = id
        self.endsOnRelease = endsOnRelease
        self.remove = remove
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
        remove(host, id)
    }
}
