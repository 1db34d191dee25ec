/// Why a resource's URL could not be built: what the requests of an invalid resource tell the user.
///
/// One byte, stored by every resource: it fits in the padding after the resource's flags.
enum InvalidURLReason: UInt8, Sendable {
    /// The text is not a URL that can be sent, or there is no base URL to put a path under.
    case unbuildable
    /// A path or segment given to `resource(_:)`, `resource(baseURL:path:)`, `child(_:)` or `child(segment:)` has
    /// a `.` or `..` segment (rule W3). Neither text nor navigation is safe there: escaped as `%2E%2E` it still
    /// climbs for servers and URL parsers that decode before removing dot segments.
    case dotSegment

    /// The reason for a URL built from `path` (a path or a segment from the user) that came out nil.
    static func forPath(_ path: String) -> InvalidURLReason {
        URLBuilding.hasDotSegment(path) ? .dotSegment : .unbuildable
    }

    /// The failure's message, fit for display: it names the text and says what is wrong with it.
    func userMessage(source: String) -> String {
        switch self {
        case .unbuildable:
            return "Cannot send a request to an invalid URL."
        case .dotSegment:
            return "The path “\(source)” has a “.” or “..” segment, which could reach another address than the one "
                + "written, so it was not sent."
        }
    }

    /// The part of an invalid resource's placeholder key that tells reasons apart, so that one text refused for two
    /// reasons gives two resources, each with its own message.
    var keyPrefix: String {
        switch self {
        case .unbuildable: ""
        case .dotSegment: "dot-segment:"
        }
    }
}
