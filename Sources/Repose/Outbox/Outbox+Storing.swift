import Foundation

extension Outbox {
    /// Headers that are dropped from a write's file rather than keeping the write in memory: the app's
    /// configuration sets them again at each attempt, with the credential of that moment (rule M11).
    static let droppedHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Writes `data`'s file whole when it may be stored, and says whether it was (rule T2, T3).
    func store(_ data: WriteData, sequence: Int) -> Bool {
        guard let storage, mayStore(data) else { return false }
        var kept = data
        kept.headers = data.headers.filter { !Self.droppedHeaders.contains($0.key.lowercased()) }
        let stored = StoredWrite(sequence: sequence, partition: partition, launch: launch, write: kept)
        if storage.store(stored) { return true }
        ReposeLog.log(.cache, "Outbox cannot store a queued write; it lives in memory only")
        return false
    }

    /// Whether `data` may be written to disk: it carries no secret of its own, and goes to the service's origin,
    /// the only one whose files the outbox reads back (rule T3).
    func mayStore(_ data: WriteData) -> Bool {
        guard let url = URL(string: data.url), url.user == nil, url.password == nil,
            let origin = core?.baseURL, StoredWrite(sequence: 0, write: data).goes(to: origin)
        else { return false }
        let secretHeader = data.headers.keys.contains { name in
            !Self.droppedHeaders.contains(name.lowercased())
                && URLSessionProvider.Redirects.isSecret(headerNamed: name)  // the log's sensitive names included
        }
        return !secretHeader && !hasSecretParameter(url)
    }

    /// Whether a query parameter of `url` is named in ``secretParameterNames`` or `ReposeLog.sensitiveNames`.
    func hasSecretParameter(_ url: URL) -> Bool {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems, !items.isEmpty else {
            return false
        }
        let secret = Set(secretParameterNames.map(Self.normalized))
        return items.contains {
            secret.contains(Self.normalized($0.name)) || ReposeLog.sensitiveNames.contains($0.name)
        }
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { !["-", "_", ".", " "].contains($0) })
    }
}
