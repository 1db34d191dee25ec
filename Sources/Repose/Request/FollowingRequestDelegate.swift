/// Completes with the response of a request it does not own: many requests can wait for one shared request (a
/// credential refresh) this way, and cancelling one of them leaves the shared request running for the others.
@MainActor
final class FollowingRequestDelegate: RequestDelegate {
    private let leader: Request

    init(following leader: Request) {
        self.leader = leader
    }

    func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
        leader.onCompletion { info in completionHandler.broadcastResponse(info) }
    }

    /// Nothing to stop: the leader is shared. Its response, when it comes, is ignored.
    func cancelUnderlyingOperation() {}

    func repeated() -> any RequestDelegate {
        FollowingRequestDelegate(following: leader)
    }

    var requestDescription: String {
        "waiting for \(leader.requestDescription)"
    }
}
