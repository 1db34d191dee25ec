import Foundation
import Repose

extension Service {
    /// The resource at the path made of `segments`, each percent-escaped (a `/` or `?` in a login stays inside its
    /// segment), without creating a resource for every parent path on the way as `child(segment:)` would.
    func resource(segments: String...) -> Resource {
        resource(segments: segments)
    }

    /// The resource at the path made of `segments`, each percent-escaped.
    func resource(segments: [String]) -> Resource {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))
        let path = segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return resource("/" + path.joined(separator: "/"))
    }
}
