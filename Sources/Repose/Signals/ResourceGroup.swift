import Foundation

/// Several resources seen as one: is anything loading, what failed, is there data to show.
///
/// A group observes its members (add and remove them at any time) and keeps a ``ResourceGroupState`` up to date in
/// ``state``. A screen that shows a user and their repositories can drive one spinner and one error banner from it:
///
/// ```swift
/// let group = ResourceGroup([user, repositories])
/// group.state.observe(owner: self) { status in
///     switch status.display {
///     case .loading: showSpinner()
///     case .error(let error): showBanner(error.userMessage)
///     case .anyData, .allData: showContent()
///     case .empty: showPlaceholder()
///     }
/// }
/// group.loadIfNeeded()
/// ```
@MainActor
public final class ResourceGroup {
    /// The members, in the order they were added.
    public private(set) var members: [Resource] = []
    /// The order in which conditions win when choosing ``ResourceGroupState/display``.
    public let priority: [ResourceGroupState.Condition]
    private let storage: MutableState<ResourceGroupState>

    /// Creates a group.
    ///
    /// - Parameters:
    ///   - members: The first members.
    ///   - priority: Which condition wins the display when several hold; loading, then error, then any data by
    ///     default.
    public init(
        _ members: [Resource] = [],
        priority: [ResourceGroupState.Condition] = [.loading, .error, .anyData]
    ) {
        self.priority = priority
        self.storage = MutableState(ResourceGroupState.compute(members: [], priority: priority))
        for member in members {
            add(member)
        }
    }

    /// The combined status, replayed to each new observer and updated on every member event.
    public var state: State<ResourceGroupState> { storage.state }

    /// Adds a member (once); the group observes it for as long as the group lives.
    public func add(_ resource: Resource) {
        guard !members.contains(where: { $0 === resource }) else { return }
        members.append(resource)
        resource.addObserver(owner: self) { [weak self] _, _ in self?.refresh() }
        refresh()
    }

    /// Removes a member and stops observing it.
    public func remove(_ resource: Resource) {
        guard members.contains(where: { $0 === resource }) else { return }
        members.removeAll { $0 === resource }
        resource.removeObservers(ownedBy: self)
        refresh()
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

    private func refresh() {
        storage.value = ResourceGroupState.compute(members: members, priority: priority)
    }
}

/// The combined status of a ``ResourceGroup``.
public struct ResourceGroupState {
    /// A condition a group can be in; several may hold at once.
    public enum Condition: Sendable, Hashable {
        /// Some member is loading.
        case loading
        /// Some member's latest load failed.
        case error
        /// Some member has data.
        case anyData
        /// Every member has data.
        case allData
    }

    /// What to show, chosen by the group's priority among the conditions that hold.
    public enum Display {
        /// Some member is loading.
        case loading
        /// Some member failed; the first failed member's error.
        case error(RequestError)
        /// Some, maybe not all, members have data.
        case anyData
        /// Every member has data.
        case allData
        /// None of the conditions in the priority list holds (for example, nothing has been loaded yet).
        case empty
    }

    /// Whether any member is loading.
    public var isLoading: Bool
    /// The latest error of each failed member, by member URL.
    public var errors: [URL: RequestError]
    /// The first failed member's error, in member order.
    public var firstError: RequestError?
    /// Whether at least one member has data.
    public var hasAnyData: Bool
    /// Whether every member has data (false for an empty group).
    public var hasAllData: Bool
    /// What to show.
    public var display: Display

    @MainActor
    static func compute(members: [Resource], priority: [Condition]) -> ResourceGroupState {
        var errors: [URL: RequestError] = [:]
        var firstError: RequestError?
        for member in members {
            guard let error = member.latestError else { continue }
            errors[member.url] = error
            if firstError == nil { firstError = error }
        }
        let isLoading = members.contains { $0.isLoading }
        let hasAnyData = members.contains { $0.latestData != nil }
        let hasAllData = !members.isEmpty && members.allSatisfy { $0.latestData != nil }
        var display = Display.empty
        choosing: for condition in priority {
            switch condition {
            case .loading where isLoading: display = .loading
            case .error:
                guard let firstError else { continue choosing }
                display = .error(firstError)
            case .anyData where hasAnyData: display = .anyData
            case .allData where hasAllData: display = .allData
            default: continue choosing
            }
            break choosing
        }
        return ResourceGroupState(
            isLoading: isLoading, errors: errors, firstError: firstError, hasAnyData: hasAnyData,
            hasAllData: hasAllData, display: display)
    }
}
