// How errors describe themselves. A description is what ends up in logs and crash reports, so it shows URLs without
// their secrets and leaves out the request-body text that some causes carry.

extension RequestError: CustomStringConvertible {
    /// The message, the status and the cause: `RequestError("Not Found", status 404)`. URLs in it, such as the
    /// one a transport error's cause carries, are shown without their secrets, as ``ReposeLog/describe(url:)``
    /// shows them.
    public var description: String {
        var parts = ["RequestError(\"\(userMessage)\""]
        if let httpStatusCode { parts.append("status \(httpStatusCode)") }
        if let cause { parts.append("cause: \(cause)") }
        return ReposeLog.redactingURLs(in: parts.joined(separator: ", ") + ")")
    }
}

extension RequestError.Cause.UnencodableText: CustomStringConvertible {
    /// The encoding and the length of the text, not the text: a request body may hold a password.
    public var description: String { "UnencodableText(encoding: \(encoding), \(text.count) characters)" }
}

extension RequestError.Cause.NotURLEncodable: CustomStringConvertible {
    /// The length of the string, not the string: a form parameter may hold a password.
    public var description: String { "NotURLEncodable(\(offendingString.count) characters)" }
}
