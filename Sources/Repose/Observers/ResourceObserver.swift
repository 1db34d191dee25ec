/// Something that wants to hear about every change to a resource.
///
/// Observers hear about every change, whoever caused it: a load started by another screen, a local override, an
/// error. Write the handler idempotently ("show whatever the resource holds now") and it serves for the first
/// display, for refreshes and for errors alike:
///
/// ```swift
/// func resourceChanged(_ resource: Resource, event: ResourceEvent) {
///     nameLabel.text = resource.jsonDict["name"] as? String
///     errorLabel.text = resource.latestError?.userMessage
/// }
/// ```
@MainActor
public protocol ResourceObserver {
    /// Called when the resource's state changes, and once with ``ResourceEvent/observerAdded`` when observing starts.
    func resourceChanged(_ resource: Resource, event: ResourceEvent)

    /// Called as a load of the resource makes progress, with a value from 0 to 1.
    func resourceRequestProgress(for resource: Resource, progress: Double)

    /// Called when this observer stops observing because its owners were removed.
    func stoppedObserving(resource: Resource)

    /// Observers with equal non-nil identities are the same observer: adding one twice registers it once.
    /// Objects use their object identity by default; other types have none.
    var observerIdentity: AnyHashable? { get }
}

extension ResourceObserver {
    /// Does nothing by default.
    public func resourceRequestProgress(for resource: Resource, progress: Double) {}

    /// Does nothing by default.
    public func stoppedObserving(resource: Resource) {}

    /// `nil` by default: values have no identity, so the same value added twice observes twice.
    public var observerIdentity: AnyHashable? { nil }
}

extension ResourceObserver where Self: AnyObject {
    /// The object's identity, so that an object added twice observes once.
    public var observerIdentity: AnyHashable? { ObjectIdentifier(self) }
}

/// The closure form of an observer, for ``Resource/addObserver(owner:closure:)``.
public typealias ResourceObserverClosure = @MainActor (Resource, ResourceEvent) -> Void
