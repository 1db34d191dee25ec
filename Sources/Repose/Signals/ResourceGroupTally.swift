import Foundation

/// What a ``ResourceGroup`` knows of each member, and its counts over them, kept up to date one member at a time.
///
/// A member's change costs a dictionary lookup and a few counter updates, whatever the group's size; only a change
/// in which members failed also copies the error table the last snapshot shares (O(failed members)). Pure: members
/// are known by an identity, their status is given, so the bookkeeping is testable without resources.
struct ResourceGroupTally {
    /// What the group last saw of one member.
    struct Status: Equatable {
        var isLoading = false
        var hasData = false
        var hasError = false
    }

    private struct Member {
        /// The member's place in the order of joining: member order, since removals keep the others' order.
        let order: Int
        let url: URL
        var status: Status
    }

    private var members: [ObjectIdentifier: Member] = [:]
    private var nextOrder = 0
    private(set) var loadingCount = 0
    private(set) var dataCount = 0
    /// The latest error of each failed member, by URL.
    private(set) var errors: [URL: RequestError] = [:]
    /// The failed members' orders, ascending, with their errors: the first is the first failed member.
    private var failed: [(order: Int, error: RequestError)] = []

    var memberCount: Int { members.count }
    var firstError: RequestError? { failed.first?.error }

    func contains(_ id: ObjectIdentifier) -> Bool {
        members[id] != nil
    }

    /// Adds a member (at the end of the order) with its current status; does nothing for a member already held.
    mutating func add(_ id: ObjectIdentifier, url: URL, status: Status, error: @autoclosure () -> RequestError?) {
        guard members[id] == nil else { return }
        members[id] = Member(order: nextOrder, url: url, status: Status())
        nextOrder += 1
        update(id, to: status, error: error())
    }

    /// Removes a member and what it counted for.
    mutating func remove(_ id: ObjectIdentifier) {
        guard members[id] != nil else { return }
        update(id, to: Status(), error: nil)
        members[id] = nil
    }

    /// Records a member's new status. `error` is read only when the member has an error and `replacesError` is
    /// true or it had none before: for an error event, the error it reports replaces the one the group holds.
    mutating func update(
        _ id: ObjectIdentifier, to status: Status, replacesError: Bool = false,
        error: @autoclosure () -> RequestError?
    ) {
        guard let member = members[id] else { return }
        let old = member.status
        if old == status, !(status.hasError && replacesError) { return }
        members[id]?.status = status
        if old.isLoading != status.isLoading { loadingCount += status.isLoading ? 1 : -1 }
        if old.hasData != status.hasData { dataCount += status.hasData ? 1 : -1 }
        if status.hasError, !old.hasError || replacesError, let error = error() {
            setError(error, order: member.order, url: member.url)
        } else if old.hasError, !status.hasError {
            clearError(order: member.order, url: member.url)
        }
    }

    private mutating func setError(_ error: RequestError, order: Int, url: URL) {
        errors[url] = error
        let index = position(of: order)
        if index < failed.count, failed[index].order == order {
            failed[index].error = error
        } else {
            failed.insert((order, error), at: index)
        }
    }

    private mutating func clearError(order: Int, url: URL) {
        errors[url] = nil
        let index = position(of: order)
        if index < failed.count, failed[index].order == order { failed.remove(at: index) }
    }

    /// Where `order` is or belongs in `failed` (binary search).
    private func position(of order: Int) -> Int {
        var low = 0
        var high = failed.count
        while low < high {
            let middle = (low + high) / 2
            if failed[middle].order < order { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
