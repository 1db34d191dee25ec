import Foundation

/// The outbox's writes: in the order they were made, and in one line per resource, oldest first.
///
/// Every change costs the same whatever the number of writes (rule T4): an entry is found by its key, the next
/// write of a resource is the head of that resource's line, and removed keys are skipped lazily, each list being
/// compacted once half of it is gone. Only ``visit(_:)`` and ``prepend(_:)`` walk every entry.
@MainActor
struct OutboxBook {
    /// One resource's keys, oldest first, from `head` on; keys of removed entries are skipped when met.
    private struct Line {
        var keys: [String] = []
        var head = 0
    }

    private var entries: [String: OutboxEntry] = [:]
    /// Every key in order; removed ones stay until compaction.
    private var order: [String] = []
    private var lines: [String: Line] = [:]
    /// How many entries are storing, or sending: kept here so that the outbox knows whether it is idle at once.
    private(set) var storingCount = 0
    private(set) var sendingCount = 0
    /// How many entries show a change on each URL, so that a resource made with none to show costs nothing.
    private var changeCounts: [String: Int] = [:]

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    subscript(key: String) -> OutboxEntry? {
        entries[key]
    }

    func contains(_ key: String) -> Bool {
        entries[key] != nil
    }

    /// Adds `entry` after every other, last in its resource's line.
    mutating func append(_ entry: OutboxEntry) {
        entries[entry.key] = entry
        count(entry, by: 1)
        order.append(entry.key)
        lines[entry.data.url, default: Line()].keys.append(entry.key)
    }

    /// Puts `restored`, already in order, before every entry: writes of an earlier launch go first.
    mutating func prepend(_ restored: [OutboxEntry]) {
        guard !restored.isEmpty else { return }
        // Removed keys go first: a restored entry may have the key of one removed earlier (read again after the
        // partition changed back), which must not stand twice in a list.
        let liveOrder = order.filter { entries[$0] != nil }
        var liveLines = lines.mapValues { line in line.keys[line.head...].filter { entries[$0] != nil } }
        var restoredLines: [String: [String]] = [:]
        for entry in restored {
            entries[entry.key] = entry
            count(entry, by: 1)
            restoredLines[entry.data.url, default: []].append(entry.key)
        }
        order = restored.map(\.key) + liveOrder
        for (url, keys) in restoredLines {
            liveLines[url] = keys + (liveLines[url] ?? [])
        }
        lines = liveLines.filter { !$0.value.isEmpty }.mapValues { Line(keys: $0, head: 0) }
    }

    /// Changes the entry `key`, if it is here.
    mutating func update(_ key: String, _ change: (inout OutboxEntry) -> Void) {
        guard var entry = entries[key] else { return }
        count(entry, by: -1)
        change(&entry)
        count(entry, by: 1)
        entries[key] = entry
    }

    /// Removes the entry `key` and returns it.
    @discardableResult
    mutating func remove(_ key: String) -> OutboxEntry? {
        guard let entry = entries.removeValue(forKey: key) else { return nil }
        count(entry, by: -1)
        if order.count > 32, entries.count < order.count / 2 {
            steps += order.count
            order.removeAll { entries[$0] == nil }
        }
        if var line = lines[entry.data.url] {
            skipRemoved(&line)
            lines[entry.data.url] = line.head == line.keys.count ? nil : line
        }
        return entry
    }

    /// The oldest entry of the resource at `url`.
    mutating func head(of url: String) -> OutboxEntry? {
        guard var line = lines[url] else { return nil }
        skipRemoved(&line)
        lines[url] = line.head == line.keys.count ? nil : line
        return line.head < line.keys.count ? entries[line.keys[line.head]] : nil
    }

    /// How many times every entry was walked, and how many keys were stepped over or moved in all: what a test
    /// counts to check that the work stays linear.
    private(set) var walks = 0
    private(set) var steps = 0

    /// Every entry, oldest first.
    mutating func visit(_ body: (OutboxEntry) -> Void) {
        walks += 1
        for key in order {
            if let entry = entries[key] { body(entry) }
        }
    }

    /// The keys of the entries for which `predicate` holds, oldest first.
    mutating func keys(where predicate: (OutboxEntry) -> Bool) -> [String] {
        var found: [String] = []
        visit { if predicate($0) { found.append($0.key) } }
        return found
    }

    private mutating func skipRemoved(_ line: inout Line) {
        while line.head < line.keys.count, entries[line.keys[line.head]] == nil {
            line.head += 1
            steps += 1
        }
        if line.head > 16, line.head * 2 > line.keys.count {
            steps += line.keys.count
            line.keys.removeFirst(line.head)
            line.head = 0
        }
    }

    /// Whether some entry shows a change on the resource at `url`.
    func hasChanges(showingOn url: String) -> Bool {
        changeCounts[url] != nil
    }

    private mutating func count(_ entry: OutboxEntry, by step: Int) {
        if entry.change != nil {
            let count = changeCounts[entry.changeTarget, default: 0] + step
            changeCounts[entry.changeTarget] = count == 0 ? nil : count
        }
        switch entry.phase {
        case .storing: storingCount += step
        case .sending: sendingCount += step
        case .ready, .waiting: break
        }
    }
}
