extension Entity {
    /// This entity's metadata after a 304 Not Modified with `headers` confirmed it (RFC 9111 §3.2 and §4.3.4, rule
    /// W4): each header field of the 304 replaces the stored one of that name, so a new `Cache-Control`, `Expires`,
    /// `Date` or `ETag` is what later freshness checks and validators read.
    ///
    /// Left out, as RFC 9111 allows a cache that keeps processed content: the fields that describe the body as it
    /// was decoded and parsed (`Content-Type`, `Content-Encoding`, `Content-Length`, `Transfer-Encoding`), which a
    /// 304 has no body to back, and connection-level fields. The stored `Age` goes when the 304 has none: it told
    /// how old the first response was, and the confirmation is new.
    func revalidated(by headers: [String: String]) -> Entity {
        var updated = self
        updated.setHeader(nil, forKey: "age")
        for (name, value) in headers where !Self.fieldsKeptOn304.contains(name.lowercased()) {
            updated.setHeader(value, forKey: name)
        }
        return updated
    }

    /// Lowercased names of the fields a 304 does not replace.
    private static var fieldsKeptOn304: Set<String> {
        [
            "content-type", "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive",
            "te", "trailer", "upgrade", "proxy-connection",
        ]
    }
}

extension Entity {
    /// Replaces every header with `headers`, whose names are lowercased already (they come from an entity).
    mutating func replaceHeaders(with headers: [String: String]) {
        for name in self.headers.keys where headers[name] == nil {
            setHeader(nil, forKey: name)
        }
        for (name, value) in headers {
            setHeader(value, forKey: name)
        }
    }
}
