/// HTTP status reason phrases from our own table, so that messages read the same on every platform.
enum HTTPStatus {
    /// A reason phrase in sentence case, e.g. `Not found`, fit for display.
    static func userMessage(for statusCode: Int) -> String {
        if let phrase = reasonPhrases[statusCode] { return phrase }
        switch statusCode {
        case 400..<500: return "Client error"
        case 500..<600: return "Server error"
        default: return "Unexpected server response (\(statusCode))"
        }
    }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-authoritative information", 204: "No content",
        205: "Reset content", 206: "Partial content",
        300: "Multiple choices", 301: "Moved permanently", 302: "Found", 303: "See other", 304: "Not modified",
        305: "Use proxy", 307: "Temporary redirect", 308: "Permanent redirect",
        400: "Bad request", 401: "Unauthorized", 402: "Payment required", 403: "Forbidden", 404: "Not found",
        405: "Method not allowed", 406: "Not acceptable", 407: "Proxy authentication required",
        408: "Request timed out", 409: "Conflict", 410: "No longer available", 411: "Length required",
        412: "Precondition failed", 413: "Request too large", 414: "Requested URL too long",
        415: "Unsupported media type", 416: "Requested range not satisfiable", 417: "Expectation failed",
        418: "I'm a teapot", 421: "Misdirected request", 422: "Unprocessable entity", 423: "Locked",
        424: "Failed dependency", 425: "Too early", 426: "Upgrade required", 428: "Precondition required",
        429: "Too many requests", 431: "Request header fields too large", 451: "Unavailable for legal reasons",
        500: "Internal server error", 501: "Unimplemented", 502: "Bad gateway", 503: "Service unavailable",
        504: "Gateway timed out", 505: "HTTP version not supported", 506: "Variant also negotiates",
        507: "Insufficient storage", 508: "Loop detected", 510: "Not extended",
        511: "Network authentication required",
    ]
}
