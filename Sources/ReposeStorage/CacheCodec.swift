import Foundation
import Repose

/// Teaches ``FileEntityCache`` to store one type of model, so that a cache on the `.model` stage skips parsing on a
/// warm start.
///
/// ```swift
/// let cache = FileEntityCache(directory: folder, codecs: [.codable(User.self), .codable([Post].self)])
/// service.configure("/users/*") { $0.pipeline[.model].cacheUsing(cache) }
/// ```
///
/// `Data`, `String` and JSON values (what the standard JSON parser produces) need no codec.
public struct CacheCodec: Sendable {
    /// The name stored in each entry the codec writes, so that the same codec reads it back.
    public let name: String
    let encode: @Sendable (Any) throws -> Data?
    let decode: @Sendable (Data) throws -> Any

    /// A codec that stores content of type `Model` as JSON, with `JSONEncoder` and `JSONDecoder` defaults.
    public static func codable<Model: Codable & Sendable>(_ type: Model.Type) -> CacheCodec {
        CacheCodec(
            name: String(reflecting: Model.self),
            encode: { content in
                guard let model = content as? Model else { return nil }  // `content` is never optional here
                return try JSONEncoder().encode(model)
            },
            decode: { data in try JSONDecoder().decode(Model.self, from: data) })
    }
}
