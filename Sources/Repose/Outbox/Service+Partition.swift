import Foundation

extension Service {
    /// The account whose data the service keeps on disk: the partition of the ``Outbox`` and of every
    /// ``EntityCache`` the configuration uses, set in one place. `nil` (the default) is a partition too.
    ///
    /// ```swift
    /// func signIn(_ account: Account) {
    ///     api.partition = account.id
    /// }
    /// ```
    ///
    /// Set it when an account signs in, before its resources are used, and after the caches are configured. Each
    /// cache is told with ``EntityCache/switchPartition(to:)``: a `FileEntityCache` then reads and writes that
    /// account's entries only. The outbox holds that account's writes only: those of the account before leave
    /// memory (their callers hear a cancellation; one kept in memory only is dropped, as it may only go with its own
    /// account's credential), their files stay for that account's return, and the new account's are read from the
    /// folder and sent. No write is sent while another account's partition is set.
    public var partition: String? {
        get { core.writes.partition }
        set {
            guard newValue != partition else { return }
            for cache in core.everyCache() {
                cache.switchPartition(to: newValue)
            }
            core.writes.partition = newValue
        }
    }
}
