import Foundation

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
        /// Some members have data; with ``ResourceGroup/defaultPriority``, some but not all of them.
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
    /// How many members the group has.
    public var memberCount: Int
    /// How many members are loading.
    public var loadingCount: Int
    /// How many members have data: with ``memberCount``, "3 of 5 loaded".
    public var dataCount: Int

    init(tally: ResourceGroupTally, priority: [Condition]) {
        isLoading = tally.loadingCount > 0
        errors = tally.errors
        firstError = tally.firstError
        hasAnyData = tally.dataCount > 0
        hasAllData = tally.memberCount > 0 && tally.dataCount == tally.memberCount
        memberCount = tally.memberCount
        loadingCount = tally.loadingCount
        dataCount = tally.dataCount
        display = .empty
        display = chooseDisplay(priority)
    }

    /// The first condition of `priority` that holds, as a display.
    private func chooseDisplay(_ priority: [Condition]) -> Display {
        for condition in priority {
            switch condition {
            case .loading where isLoading: return .loading
            case .error:
                if let firstError { return .error(firstError) }
            case .anyData where hasAnyData: return .anyData
            case .allData where hasAllData: return .allData
            default: continue
            }
        }
        return .empty
    }
}
