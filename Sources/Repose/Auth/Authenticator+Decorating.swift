import Foundation

extension Authenticator {
    /// The built-in decorator behind ``Configuration/authenticator`` (rule R9), made of chains.
    ///
    /// - A request started while a refresh is under way is not sent: a repeat of it, built once the refresh is
    ///   over (so carrying the new credential), is sent instead.
    /// - Any other request is wrapped in a chain that looks at a 401: sent with the current credential, it starts a
    ///   refresh or joins the one under way, then sends a repeat; sent with an older one, it sends a repeat at once.
    ///   Repeats are not wrapped again, so each request is sent again at most once.
    /// - After a failed refresh (``refreshFailure``), a request that would carry the credential it could not renew
    ///   is not sent: it fails at once with that error, and a 401 to one sent before fails with it too (rule T7).
    /// - The refresh's own requests pass through untouched.
    func decorate(_ resource: Resource, _ request: Request) -> Request {
        guard !isInsideRefresh else { return request }
        if let refreshFailure, credential != nil {
            return failed(with: refreshFailure, now: request.now)
        }
        if let refresh {
            return after(refresh, send: request.repeated)
        }
        let sentWith = generation
        // The caller's log handler: the chain's closure runs where the response arrives, outside the caller's task.
        let log = LogSettings.handler(for: .network)
        return request.chained { [self] info in
            guard info.response.error?.httpStatusCode == 401 else { return .useThisResponse }
            if let refreshFailure {  // any repeat would carry the credential that could not be renewed
                return .passTo(failed(with: refreshFailure, now: request.now))
            }
            if sentWith != generation, refresh == nil {
                return .passTo(request.repeated())
            }
            return .passTo(after(startRefresh(for: resource, log: log), send: request.repeated))
        }
    }

    /// A request that waits for `refresh` without owning it (cancelling one waiter leaves the refresh to the
    /// others; cancelling the last cancels it), then completes with `next()`'s response, or with the refresh's error
    /// if it failed.
    private func after(_ refresh: Request, send next: @escaping @MainActor () -> Request) -> Request {
        Request(delegate: RefreshWaiterDelegate(authenticator: self, refresh: refresh), now: refresh.now).chained {
            info in
            info.response.error == nil ? .passTo(next()) : .useThisResponse
        }
    }

    /// A request that fails at once with `error`, restamped now, without sending anything.
    private func failed(with error: RequestError, now: @escaping @Sendable () -> TimeInterval) -> Request {
        var error = error
        error.timestamp = now()
        return Request(delegate: HardWiredRequestDelegate(response: .failure(error)), now: now)
    }
}
