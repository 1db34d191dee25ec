import Foundation

/// One `configure(...)` call: which URLs and methods it applies to, and what it does.
struct ConfigurationEntry {
    let description: String
    let requestMethods: Set<RequestMethod>
    let matches: (URL) -> Bool
    let configurer: @MainActor (inout Configuration) -> Void
}
