extension Signal {
    /// Delivers a value that this signal originates: the context's deferred emitters run after each value.
    @inlinable
    func send(_ value: Value) {
        let context = originContext
        if isDelivering {
            backlog.append((value, context))
            return
        }
        isDelivering = true
        broadcast(value, context)
        if !context.deferred.isEmpty { context.flush() }
        if backlog.count > backlogStart { drainBacklog() }
        isDelivering = false
        if tombstones != 0 { tidy() }
    }

    /// Delivers a value that arrived through a link; the originating signal flushes the context.
    @inlinable
    func deliver(_ value: Value, _ context: DeliveryContext) {
        if isDelivering {
            backlog.append((value, context))
            return
        }
        isDelivering = true
        broadcast(value, context)
        if backlog.count > backlogStart { drainBacklog() }
        isDelivering = false
        if tombstones != 0 { tidy() }
    }

    /// Calls every observer registered when the delivery started (S3, S5).
    @inlinable @inline(__always)
    func broadcast(_ value: Value, _ context: DeliveryContext) {
        var index = 0
        let end = entries.count
        while index < end, index < entries.count {
            switch entries[index].handler {
            case .plain(let handler)?:
                handler(value)
            case .linked(let handler)?:
                handler(value, context)
            case .owned(let handler)?:
                if entries[index].owner != nil {
                    handler(value)
                } else {
                    retire(at: index)
                }
            case nil:
                break
            }
            index &+= 1
        }
    }

    /// Delivers values queued by re-entrant sends, in order (S4). Each queued value's context is flushed after
    /// it, because its origin may already have finished.
    @usableFromInline
    func drainBacklog() {
        while backlogStart < backlog.count {
            let (value, context) = backlog[backlogStart]
            backlogStart += 1
            broadcast(value, context)
            if !context.deferred.isEmpty { context.flush() }
        }
        backlog.removeAll(keepingCapacity: true)
        backlogStart = 0
    }

    /// Connects upstream if needed, then delivers the prefix and `replay` to one new observer only.
    ///
    /// The signal counts as delivering throughout, so values arriving meanwhile (an upstream `prepend` replaying
    /// while connecting, or a send from the observer itself) are queued and follow the replay, in order (S4).
    @usableFromInline
    func connectAndReplay(to id: Int, _ replay: () -> Value?) {
        let wasDelivering = isDelivering
        isDelivering = true
        if liveCount == 1, teardown == nil, let connector {
            teardown = connector(self)
        }
        for value in prefix {
            replayValue(value, to: id)
        }
        // Read after connecting: connecting a derived state's upstream may change the value to replay.
        if let value = replay() {
            replayValue(value, to: id)
        }
        if wasDelivering { return }
        if backlog.count > backlogStart { drainBacklog() }
        isDelivering = false
        if tombstones != 0 { tidy() }
    }

    @usableFromInline
    func replayValue(_ value: Value, to id: Int) {
        guard let index = index(of: id) else { return }
        switch entries[index].handler {
        case .plain(let handler)?, .owned(let handler)?:
            handler(value)
        case .linked(let handler)?:
            let context = originContext
            handler(value, context)
            if !context.deferred.isEmpty { context.flush() }
        case nil:
            break
        }
    }
}
