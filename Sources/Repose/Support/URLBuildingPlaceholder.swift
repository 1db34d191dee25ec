import Foundation

// Temporary: replaced by the real URL arithmetic from the `urls` branch.
enum URLBuilding {
    static func serviceBaseURL(_ string: String?) -> URL? {
        guard let string, var url = URL(string: string), url.scheme != nil else { return nil }
        if !url.path.hasSuffix("/") { url = URL(string: string + "/") ?? url }
        return url
    }
    static func serviceBaseURL(_ url: URL?) -> URL? { serviceBaseURL(url?.absoluteString) }
    static func resourceURL(base: URL, path: String) -> URL? {
        let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: base.absoluteString + trimmed)
    }
    static func absoluteURL(_ string: String?) -> URL? { string.flatMap { URL(string: $0) } }
    static func child(of url: URL, _ subpath: String) -> URL { url.appendingPathComponent(subpath) }
    static func relative(to url: URL, _ href: String) -> URL? { URL(string: href, relativeTo: url)?.absoluteURL }
    static func withParam(_ url: URL, _ name: String, _ value: String?) -> URL { url }
    static func withParams(_ url: URL, _ params: [String: String?]) -> URL { url }
}
