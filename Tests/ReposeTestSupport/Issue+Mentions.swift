import Testing

extension Issue {
    /// Whether this issue's comments contain every one of `parts`.
    ///
    /// A `withKnownIssue` filter built on it expects one failure by its message; any other failure in the block,
    /// such as a broken expectation, is not known, so it still fails the test.
    func mentions(_ parts: String...) -> Bool {
        let text = comments.map(\.rawValue).joined(separator: "\n")
        return parts.allSatisfy { text.contains($0) }
    }
}
