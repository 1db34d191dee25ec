import Foundation

/// Several resources seen as one: is anything loading, what failed, is there data to show, some or all of it.
///
/// A group observes its members (add and remove them at any time) and keeps a ``ResourceGroupState`` up to date in
/// ``state``. A screen that shows a user and their repositories can drive one spinner and one error banner from it:
///
/// ```swift
/// group = ResourceGroup([user, repositories])   // kept by the screen: a group lives as long as it is held
/// group.state.observe(owner: self) { screen, status in
///     switch status.display {
///     case .loading: screen.showSpinner()
///     case .error(let error): screen.showBanner(error.userMessage)
///     case .allData: screen.showContent()
///     case .anyData: screen.showContent(partial: true)
///     case .empty: screen.showPlaceholder()
///     }
/// }
/// group.loadIfNeeded()
/// ```
///
/// A member's event updates the group at a cost that does not grow with the number of members, and reaches the
/// group's observers before the member's event delivery returns.
@MainActor
public final class ResourceGroup {
    /// The members, in the order they were added.
    public private(set) var members: [Resource] = []
    /// The order in which conditions win when choosing ``ResourceGroupState/display``.
    public let priority: [ResourceGroupState.Condition]
    private let storage: MutableState<ResourceGroupState>
    private var tally = ResourceGroupTally()

    /// The priority groups use unless told otherwise: loading, then error, then all data, then any data. A screen
    /// can tell "everything is here" (``ResourceGroupState/Display/allData``) from "some of it is"
    /// (``ResourceGroupState/Display/anyData``) without configuring anything.
    public nonisolated static let defaultPriority: [ResourceGroupState.Condition] = [
        .loading, .error, .allData, .anyData,
    ]

    /// Creates a group.
    ///
    /// - Parameters:
    ///   - members: The first members.
    ///   - priority: Which condition wins the display when several hold; ``defaultPriority`` unless given. Pass
    ///     `[.loading, .error, .anyData]` to show ``ResourceGroupState/Display/anyData`` whether some or all
    ///     members have data, as groups did before ``ResourceGroupState/Display/allData`` was in the default.
    public init(_ members: [Resource] = [], priority: [ResourceGroupState.Condition] = ResourceGroup.defaultPriority) {
        self.priority = priority
        self.storage = MutableState(ResourceGroupState(tally: ResourceGroupTally(), priority: priority))
        for member in members {
            join(member)
        }
        publish()
    }

    /// The combined status, replayed to each new observer and updated on every member event.
    public var state: State<ResourceGroupState> { storage.state }

    /// Adds a member (once); the group observes it for as long as the group lives.
    public func add(_ resource: Resource) {
        guard join(resource) else { return }
        publish()
    }

    /// Removes a member and stops observing it.
    public func remove(_ resource: Resource) {
        let id = ObjectIdentifier(resource)
        guard tally.contains(id) else { return }
        members.removeAll { $0 === resource }
        tally.remove(id)
        resource.removeObservers(ownedBy: self)
        publish()
    }

    /// Calls ``Resource/loadIfNeeded()`` on every member.
    public func loadIfNeeded() {
        for member in members {
            member.loadIfNeeded()
        }
    }

    /// Loads again every member whose latest load failed.
    public func retryFailed() {
        for member in members where member.latestError != nil {
            member.load()
        }
    }

    /// Adds `resource` to the members and the tally, and observes it; false if it is a member already.
    @discardableResult
    private func join(_ resource: Resource) -> Bool {
        let id = ObjectIdentifier(resource)
        guard !tally.contains(id) else { return false }
        members.append(resource)
        tally.add(id, url: resource.url, status: Self.status(of: resource), error: resource.latestError)
        resource.addObserver(owner: self) { [weak self] resource, event in
            self?.memberChanged(resource, id: id, event: event)
        }
        return true
    }

    private func memberChanged(_ resource: Resource, id: ObjectIdentifier, event: ResourceEvent) {
        guard event != .observerAdded else { return }
        tally.update(id, to: Self.status(of: resource), replacesError: event == .error, error: resource.latestError)
        publish()
    }

    private static func status(of resource: Resource) -> ResourceGroupTally.Status {
        .init(isLoading: resource.isLoading, hasData: resource.latestData != nil, hasError: resource.latestError != nil)
    }

    private func publish() {
        storage.value = ResourceGroupState(tally: tally, priority: priority)
    }
}
