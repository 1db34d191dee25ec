import Foundation

extension Outbox {
    /// A read of the folder under way, and what happened meanwhile that its result must not undo (rule T1).
    struct Reading {
        /// Which read it is: the result of a read that another replaced is dropped.
        let number: Int
        /// The wipes made meanwhile: a write they match is not restored (its file is removed too).
        var wipes: [(URL) -> Bool] = []
        /// Writes of this launch that ended meanwhile: the read may have listed their files before the removal.
        var ended: Set<String> = []
    }

    /// Reads the writes of the current partition from the folder; nothing is sent until they are in place, so
    /// that they go before this launch's.
    func startReading() {
        guard let storage else { return }
        let number = readCount + 1
        readCount = number
        reading = Reading(number: number)
        storage.readAll(partition: partition, origin: core?.baseURL, launch: launch) { [weak self] stored in
            MainRoute.send { [self] in self?.finishReading(stored, number: number) }
        }
    }

    /// Puts the writes of earlier launches before those of this one, shows their changes, and sends them.
    func finishReading(_ stored: [StoredWrite], number: Int) {
        guard let reading, reading.number == number else { return }  // replaced: the partition changed since
        self.reading = nil
        var restored: [OutboxEntry] = []
        for item in stored where !book.contains(item.key) && !reading.ended.contains(item.key) {
            guard let url = URL(string: item.write.url), !reading.wipes.contains(where: { $0(url) }) else {
                continue  // wiped before it was read: it never comes back
            }
            let change = item.write.change?.change.map {
                PendingChange(id: PendingChange.nextID(), change: $0, startedAt: item.write.createdAt)
            }
            var entry = OutboxEntry(data: item.write, sequence: item.sequence, change: change)
            entry.wasKept = true
            entry.isStored = true
            restored.append(entry)
        }
        nextSequence = max(nextSequence, (stored.map(\.sequence).max() ?? -1) + 1)
        book.prepend(restored)
        // Resources made before the folder was read show the restored changes beneath their own.
        var changesByTarget: [String: [PendingChange]] = [:]
        for entry in restored {
            if let change = entry.change { changesByTarget[entry.changeTarget, default: []].append(change) }
        }
        for (target, changes) in changesByTarget {
            core?.resourceTable.resource(forKey: ResourceKey(target))?.apply(.changesRestored(changes))
        }
        drainAll()
    }

    /// The app changed account (``Service/partition``): the writes of the account before leave memory, their
    /// callers hear a cancellation and their changes go; their files stay for when that account comes back, but a
    /// write kept in memory only is dropped, since it may only go with its own account's credential. Then the
    /// new partition's writes are read from the folder.
    func switchPartition(to newPartition: String?) {
        guard newPartition != partition else { return }
        cancelWrites(where: { _ in true }, removingFiles: false)
        partition = newPartition
        startReading()
        publish()
    }

    /// Forgets every write of the partition whose URL satisfies `predicate`, in memory and in the folder, those
    /// not read yet included: their changes go, their callers see a cancellation (log-out, through
    /// `Service.wipeResources()`). Writes made after this call are not touched.
    func removeWrites(where predicate: @escaping (URL) -> Bool) {
        cancelWrites(where: { URL(string: $0.data.url).map(predicate) ?? true }, removingFiles: true)
        // The matchers Repose builds from patterns are immutable, so running one on the outbox's queue is safe.
        let matcher = UncheckedTransfer(predicate)
        storage?.remove(partition: partition, where: { matcher.value($0) }, sparing: launch, from: nextSequence)
        reading?.wipes.append(predicate)
        publish()
    }

    /// Takes out of memory every write for which `predicate` holds: each ends (see ``end(_:removingFile:)``) and
    /// its caller hears a cancellation.
    private func cancelWrites(where predicate: (OutboxEntry) -> Bool, removingFiles: Bool) {
        let now = core?.now() ?? 0
        for key in book.keys(where: predicate) {
            guard let entry = book.remove(key) else { continue }
            end(entry, removingFile: removingFiles)
            entry.caller?.broadcastResponse(.cancellation(timestamp: now))
        }
    }
}
