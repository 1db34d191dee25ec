import Foundation

extension Resource {
    /// Sends a request that changes this resource, and shows `change` at once while it is on its way.
    ///
    /// ```swift
    /// let repo = api.resource("/repos/42")
    /// repo.mutate(.patch, json: ["starred": true], showing: .merge(["starred": true]))
    /// ```
    ///
    /// The change is a layer over the server's data (rules M1–M5): observers hear one event when it shows, and when
    /// the mutation fails or is cancelled only this change goes, whatever other changes are pending. When it
    /// succeeds, the change stays until the server's new data replaces it, in one step, so the view never flickers
    /// back to the old data: the response itself where ``Configuration/mutationResponseIsResource`` says so,
    /// otherwise a reload of the resource the change shows on, which the success starts whatever
    /// ``Configuration/invalidation`` says.
    ///
    /// With the outbox in use (``MutationOptions/usesOutbox`` or ``Configuration/usesOutbox``), a mutation that
    /// fails for want of a network waits in the service's ``Outbox``, change and all, and the returned request
    /// completes when the outbox has delivered it, or failed to, in this launch.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - change: What to show meanwhile; `nil` to show nothing until the server answers.
    ///   - target: The resource the change shows on, when it is not this one: a `PUT /user/starred/42` that
    ///     changes what `/repos/42` shows.
    ///   - headers: Headers of this mutation only, sent with every attempt after the configured ones, as for any
    ///     request (``request(_:headers:requestMutation:)``). The outbox keeps them on disk, except
    ///     `Authorization`, `Cookie`, `Proxy-Authorization` and any header whose name says it holds a secret.
    ///   - options: Whether the outbox may keep the mutation.
    /// - Returns: The request: hooks, `await request.response`, and `cancel()` (which rolls the change back) work
    ///   as for any request.
    @discardableResult
    public func mutate(
        _ method: RequestMethod, showing change: OptimisticChange? = nil, on target: Resource? = nil,
        headers: [String: String] = [:], options: MutationOptions = MutationOptions()
    ) -> Request {
        mutate(method, body: nil, change: change, target: target, headers: headers, options: options)
    }

    /// Sends a request whose body is `json` (a dictionary or array of JSON values, as for
    /// ``request(_:json:contentType:headers:requestMutation:)``), showing `change` while it is on its way. See
    /// ``mutate(_:showing:on:headers:options:)``.
    @discardableResult
    public func mutate(
        _ method: RequestMethod, json: Any, showing change: OptimisticChange? = nil, on target: Resource? = nil,
        headers: [String: String] = [:], options: MutationOptions = MutationOptions()
    ) -> Request {
        let sending = (headers: headers, options: options)
        return mutate(method, change: change, target: target, sending, contentType: RequestBody.jsonContentType) {
            try RequestBody.json(json)
        }
    }

    /// Sends a request whose body is `json` encoded by a `JSONEncoder` (compact, sorted keys when none is given),
    /// showing `change` while it is on its way. See ``mutate(_:showing:on:headers:options:)``.
    @discardableResult
    public func mutate<Body: Encodable>(
        _ method: RequestMethod, json: Body, encoder: JSONEncoder? = nil, showing change: OptimisticChange? = nil,
        on target: Resource? = nil, headers: [String: String] = [:], options: MutationOptions = MutationOptions()
    ) -> Request {
        let sending = (headers: headers, options: options)
        return mutate(method, change: change, target: target, sending, contentType: RequestBody.jsonContentType) {
            try RequestBody.json(json, encoder: encoder ?? Self.compactJSONEncoder())
        }
    }

    /// Sends a request whose body is `data`, labelled `contentType`, showing `change` while it is on its way. See
    /// ``mutate(_:showing:on:headers:options:)``.
    @discardableResult
    public func mutate(
        _ method: RequestMethod, data: Data, contentType: String, showing change: OptimisticChange? = nil,
        on target: Resource? = nil, headers: [String: String] = [:], options: MutationOptions = MutationOptions()
    ) -> Request {
        mutate(method, body: (data, contentType), change: change, target: target, headers: headers, options: options)
    }

    /// Encodes the body once, now: a body that cannot be encoded gives a request that has already failed, and no
    /// change shows.
    private func mutate(
        _ method: RequestMethod, change: OptimisticChange?, target: Resource?,
        _ sending: (headers: [String: String], options: MutationOptions), contentType: String,
        encode: () throws -> Data
    ) -> Request {
        do {
            let body = try encode()
            return mutate(
                method, body: (body, contentType), change: change, target: target, headers: sending.headers,
                options: sending.options)
        } catch {
            var failure = RequestError(wrapping: error, fallbackMessage: "The request body could not be encoded.")
            failure.timestamp = core.now()
            return Resource.failedRequest(returning: failure)
        }
    }

    private func mutate(
        _ method: RequestMethod, body: (Data, String)?, change: OptimisticChange?, target: Resource?,
        headers oneOff: [String: String], options: MutationOptions
    ) -> Request {
        let usesOutbox = options.usesOutbox ?? configuration(for: method).usesOutbox
        var headers = oneOff
        // The body's type, unless the call names one itself (`application/merge-patch+json`, say), as for requests.
        if let (_, contentType) = body, !oneOff.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = contentType
        }
        let shownOn = target ?? self
        let data = MutationData(
            method: method.rawValue, url: url.absoluteString, body: body?.0, headers: headers,
            idempotencyKey: usesOutbox ? UUID().uuidString : nil, createdAt: core.now(),
            changeTarget: shownOn === self ? nil : shownOn.url.absoluteString, change: change?.stored)
        let pending = change.map { PendingChange(id: PendingChange.nextID(), change: $0, startedAt: data.createdAt) }
        if let pending {
            shownOn.apply(.changeStarted(pending))
        }
        if usesOutbox, invalidURLSource == nil {
            return core.mutations.outbox(of: core).submit(data, change: pending, from: self)
        }
        let request = sendMutation(data)
        if let pending {
            endChange(pending.id, on: shownOn, when: request, method: method)
        }
        return request
    }

    /// One attempt of `data`: a new request built from it, so configured headers, mutators and decorators run on
    /// it as on any request (rule M11).
    func sendMutation(_ data: MutationData) -> Request {
        makeRequest(data.requestMethod, body: { data.addBody(to: &$0) }, requestMutation: { _ in })
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

    /// Applies a mutation's `outcome` to the change it shows here. A change that succeeded without this resource's
    /// new data waits for a reload (rule M4), which starts at the end of the turn even when the request went to
    /// another URL or the configuration does not invalidate this one.
    func endChange(_ outcome: ResourceRecord.Change) {
        apply(outcome)
        if case .changeSucceeded(_, nil, _) = outcome {
            core.mutations.reloadSoon(self)
        }
    }

    /// What the outcome of a mutation means for its change `id`, shown on this resource when `showsOnSelf`.
    func changeOutcome(
        _ id: Int, info: ResponseInfo, method: RequestMethod, showsOnSelf: Bool
    ) -> ResourceRecord.Change {
        guard case .success(var entity) = info.response else { return .changeFailed(id: id) }
        guard showsOnSelf, info.isNew, configuration(for: method).mutationResponseIsResource else {
            return .changeSucceeded(id: id, data: nil, lifetime: nil)
        }
        entity.timestamp = core.now()
        return .changeSucceeded(id: id, data: entity, lifetime: headerLifetime(of: entity))
    }

    private static func compactJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
