import Foundation

/// A list that callbacks on other threads append to.
final class Order: @unchecked Sendable {
    // `@unchecked Sendable`: `list` is only touched under `lock`.
    private let lock = NSLock()
    private var list: [String] = []

    var entries: [String] { lock.withLock { list } }

    func append(_ entry: String) {
        lock.withLock { list.append(entry) }
    }
}
