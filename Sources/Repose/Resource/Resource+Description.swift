extension Resource: CustomStringConvertible {
    /// `Resource(https://api.example.com/users/42)`, with the URL's secrets hidden (see
    /// ``ReposeLog/describe(url:)``), so that printing a resource never prints a credential.
    public nonisolated var description: String { "Resource(\(logName))" }

    /// The resource's URL as log lines and descriptions show it.
    nonisolated var logName: String { ReposeLog.describe(url: url) }
}
