import Foundation

extension RequestError.Cause {
    /// An ``Authenticator``'s refresh took longer than its ``Authenticator/refreshTimeLimit``: it was cancelled, and
    /// the requests waiting for it failed with this cause. The credential was not judged: a later 401 may start
    /// another refresh.
    public struct CredentialRefreshTimedOut: Error, DisplayableCause {
        /// The time limit that passed, in seconds.
        public let timeLimit: TimeInterval
        var displayMessage: String { "Renewing the credential took too long." }
    }
}
