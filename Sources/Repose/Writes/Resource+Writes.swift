import Foundation

extension Resource {
    /// Sends `call` with the body `encode` makes, now: a body that cannot be encoded gives a request that has
    /// already failed, nothing is sent and no change shows.
    func send(
        _ method: RequestMethod, contentType: String, _ call: RequestCall, encode: () throws -> Data
    ) -> Request {
        let body: Data
        do {
            body = try encode()
        } catch {
            return failedEncoding(error)
        }
        return send(method, body: (body, contentType), call)
    }

    /// Where every call of the `request(...)` family with a body in memory ends: sent at once, or, for a write that
    /// may wait in the outbox, kept as data so that it can be sent again (rule M11).
    func send(_ method: RequestMethod, body: (data: Data, contentType: String)?, _ call: RequestCall) -> Request {
        let usesOutbox = method.changesData && (call.options.usesOutbox ?? configuration(for: method).usesOutbox)
        guard usesOutbox, invalidURLSource == nil else {  // a bad URL fails at once, never stored
            var setBody: RequestMutation?
            if let body {
                setBody = { urlRequest in
                    urlRequest.httpBody = body.data
                    urlRequest.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
                }
            }
            return sendAtOnce(method, body: setBody, call)
        }
        var headers = call.headers
        // The body's type, unless the call names one itself (`application/merge-patch+json`, say).
        if let body, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = body.contentType
        }
        let shownOn = call.target ?? self
        let data = WriteData(
            method: method.rawValue, url: url.absoluteString, body: body?.data, headers: headers,
            idempotencyKey: UUID().uuidString, createdAt: core.now(),
            changeTarget: shownOn === self ? nil : shownOn.url.absoluteString, change: call.change?.stored,
            invalidation: call.options.invalidation)
        let pending = startChange(of: call, at: data.createdAt)
        return core.writes.outbox(of: core).submit(data, change: pending, from: self)
    }

    /// Sends `call` now, never through the outbox, showing its optimistic change while it runs.
    func sendAtOnce(_ method: RequestMethod, body: RequestMutation?, _ call: RequestCall) -> Request {
        let pending = startChange(of: call, at: core.now())
        let request = makeRequest(
            method, body: body, invalidation: call.options.invalidation, priority: call.options.priority,
            requestMutation: Self.setting(call.headers, then: call.requestMutation))
        if let pending {
            endChange(pending.id, on: call.target ?? self, when: request, method: method)
        }
        return request
    }

    /// Shows `call`'s optimistic change, if it has one, on the resource it shows on, as started at `time`.
    private func startChange(of call: RequestCall, at time: TimeInterval) -> PendingChange? {
        guard let change = call.change else { return nil }
        let pending = PendingChange(id: PendingChange.nextID(), change: change, startedAt: time)
        (call.target ?? self).apply(.changeStarted(pending))
        return pending
    }

    /// One attempt of `data`: a new request built from it, so configured headers, mutators and decorators run on
    /// it as on any request (rule M11).
    func sendWrite(_ data: WriteData) -> Request {
        makeRequest(
            data.requestMethod, body: { data.addBody(to: &$0) }, invalidation: data.invalidation,
            requestMutation: { _ in })
    }

    /// Ends the change `id` on `target` as `request` ends: gone on failure or cancellation (rule M3); on success
    /// replaced by the response when it is the target's data, else left until the reload brings data (rule M4).
    func endChange(_ id: Int, on target: Resource, when request: Request, method: RequestMethod) {
        if target !== self {
            target.trackRequest(request)  // the target shows the change, so it stays in use until the end
        }
        request.onCompletion { [weak self, weak target] info in
            guard let self, let target else { return }
            target.endChange(changeOutcome(id, info: info, method: method, showsOnSelf: target === self))
        }
    }

    /// Applies a write's `outcome` to the change it shows here. A change that succeeded without this resource's
    /// new data waits for a reload (rule M4), which starts at the end of the turn even when the request went to
    /// another URL or the configuration does not invalidate this one; while other writes to this resource are on
    /// their way, it waits for the last of them (see ``reloadAfterWrite()``), whatever that one's outcome.
    func endChange(_ outcome: ResourceRecord.Change) {
        apply(outcome)
        // An invalidation's reload (rule M6) waited for this write too, if this was the last one on its way.
        if record.hasSettledChanges || (record.isInvalidated && !isLoading) {
            core.writes.reloadSoon(self)
        }
    }

    /// What the outcome of a write means for its change `id`, shown on this resource when `showsOnSelf`.
    func changeOutcome(
        _ id: Int, info: ResponseInfo, method: RequestMethod, showsOnSelf: Bool
    ) -> ResourceRecord.Change {
        guard case .success(var entity) = info.response else { return .changeFailed(id: id) }
        guard showsOnSelf, info.isNew, configuration(for: method).writeResponseIsResource else {
            return .changeSucceeded(id: id, data: nil, lifetime: nil)
        }
        entity.timestamp = core.now()
        return .changeSucceeded(id: id, data: entity, lifetime: headerLifetime(of: entity))
    }
}

/// What a call of the `request(...)` family asks for besides its method and body.
struct RequestCall {
    var change: OptimisticChange?
    var target: Resource?
    var headers: [String: String]
    var options: RequestOptions
    var requestMutation: Resource.RequestMutation
}
