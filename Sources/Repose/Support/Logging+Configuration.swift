import Foundation

extension ReposeLog {
    /// What the `configuration` line for a change ends with.
    static let recomputeNotice = "resources recompute their configuration"
}

extension ServiceCore {
    /// Which entries a resource's configuration came from, for the `configuration` category:
    /// `GET https://…/users/1: built from "standard transformers: text, JSON", "/users/*"`.
    func configurationLogLine(_ url: URL, _ method: RequestMethod, entries: [Int], shared: Bool) -> String {
        // An entry made for one resource is described by that resource's URL, so its secrets are hidden too.
        let names = entries.map { ReposeLog.redactingURLs(in: configurationEntries[$0].description).debugDescription }
        let source = names.isEmpty ? "no entries" : names.joined(separator: ", ")
        return "\(method.rawValue) \(ReposeLog.describe(url: url)): \(shared ? "shared, from" : "built from") \(source)"
    }
}
