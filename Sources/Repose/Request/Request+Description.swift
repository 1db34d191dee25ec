extension Request: @MainActor CustomStringConvertible {
    /// `Request(GET https://api.example.com/users/42, in progress)`: what the request sends, as its log lines show it
    /// (secrets in the URL hidden), and where it is in its life, so that logs and the debugger say which request it is.
    public var description: String {
        let stage =
            switch (state, completedResponse?.response) {
            case (.notStarted, _): "not started"
            case (.inProgress, _): "in progress"
            case (.completed, .success?): "succeeded"
            case (.completed, .failure(let error)?): error.isCancellation ? "cancelled" : "failed"
            case (.completed, nil): "completed"
            }
        return "Request(\(requestDescription), \(stage))"
    }
}

extension NetworkRequest {
    /// The method and redacted URL, for logs.
    var requestDescription: String {
        let description = "\(effectiveMethod.rawValue) \(ReposeLog.describe(url: urlRequest.url ?? resource.url))"
        switch destination {
        case .memory: return description
        case .file: return description + " → file"
        case .events: return description + " (event stream)"
        case .chunks: return description + " (streamed)"
        }
    }
}
