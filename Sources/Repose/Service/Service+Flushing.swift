import Dispatch

extension Service {
    /// Waits until everything the service has accepted for disk is there: the entries its caches were given and the
    /// writes its outbox keeps (rule T11).
    ///
    /// Caches write on their own queue after each response, and the outbox ends a sent write in its journal later
    /// too, so that the main actor never waits for a disk. An app that keeps running needs nothing more; a program
    /// that is about to exit awaits this first, or its last response may never reach the cache:
    ///
    /// ```swift
    /// let succeeded = await showUser(from: api)
    /// await api.flush()  // the cache's copy of the user is on disk: the next run can start from it
    /// exit(succeeded ? 0 : 1)
    /// ```
    ///
    /// Requests still in flight are not waited for: await them first, then flush. What the outbox keeps is on disk
    /// before its request is sent; this also waits for the journal lines that end sent writes, so that a next
    /// launch does not send them again.
    public func flush() async {
        if let storage = core.writes.outbox?.storage {
            await withCheckedContinuation { continuation in storage.flush { _ in continuation.resume() } }
        }
        let queues = core.everyCache().map(\.workQueue)
        var seen: Set<ObjectIdentifier> = []
        for queue in queues where seen.insert(ObjectIdentifier(queue)).inserted {
            // Each queue is serial: once this block runs, everything queued before it has run.
            await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        }
    }
}
