import Foundation

/// A piece of data for a resource, with the metadata that came with it: the response's content type, charset,
/// headers, and when it arrived.
///
/// Entities come from server responses (after the transformer pipeline), from a persistent cache, or from a
/// local override. `Entity<Any>` is what a resource stores; use the typed accessors (``TypedContentAccessors/text``, ``TypedContentAccessors/jsonDict``,
/// ``TypedContentAccessors/typedContent(ifNone:)``) to read it.
public struct Entity<ContentType> {
    /// The content, as the transformer pipeline left it: `Data`, `String`, JSON collections, or a model.
    public var content: ContentType
    /// The full `Content-Type` value, parameters included; `application/octet-stream` when the response had none.
    public var contentType: String
    /// The `charset` parameter of the content type, if there was one.
    public var charset: String?
    /// Response headers, keyed by lowercased name. Read them with ``header(forKey:)``.
    public private(set) var headers: [String: String]
    /// When this data was received or last confirmed (seconds since 1970, on the service's clock).
    public var timestamp: TimeInterval

    /// Creates an entity from its parts.
    ///
    /// - Parameters:
    ///   - content: The content.
    ///   - contentType: The full content type value, e.g. `text/plain; charset=utf-8`.
    ///   - charset: The charset; when `nil`, it is read from `contentType`'s parameters.
    ///   - headers: Response headers; names are matched case-insensitively.
    ///   - timestamp: When the data arrived, on the service's clock. The default, 0, means "not stamped yet": it is
    ///     stamped with the service's clock where it enters a resource (``Resource/overrideLocalData(with:)``, a hit
    ///     in a cache that holds it unstamped) or a cache (a transformer's new entity at a cached stage).
    public init(
        content: ContentType,
        contentType: String,
        charset: String? = nil,
        headers: [String: String] = [:],
        timestamp: TimeInterval = 0
    ) {
        self.init(
            content: content, contentType: contentType, charset: charset,
            lowercasedHeaders: Self.lowercasingNames(headers), timestamp: timestamp)
    }

    /// Creates an entity from a network response's metadata and already-transformed content.
    public init(response: NetworkResponse, content: ContentType, timestamp: TimeInterval) {
        let headers = Self.lowercasingNames(response.headers)
        self.init(
            content: content,
            contentType: headers["content-type"] ?? MediaType.defaultContentType,
            charset: nil,
            lowercasedHeaders: headers,
            timestamp: timestamp)
    }

    /// The designated initialiser: `headers` already have lowercased names, so they are not lowercased again (every
    /// response makes several entities on its way through the pipeline).
    private init(
        content: ContentType, contentType: String, charset: String?, lowercasedHeaders headers: [String: String],
        timestamp: TimeInterval
    ) {
        self.content = content
        self.contentType = contentType
        self.charset = charset ?? MediaType.parameter("charset", in: contentType)
        self.headers = headers
        self.timestamp = timestamp
    }

    /// `headers` with lowercased names; of names that differ only in case, one value is kept.
    private static func lowercasingNames(_ headers: [String: String]) -> [String: String] {
        var lowercased = [String: String](minimumCapacity: headers.count)
        for (name, value) in headers {
            lowercased[name.lowercased()] = value
        }
        return lowercased
    }

    /// The value of a response header, looked up case-insensitively; `nil` if absent.
    public func header(forKey key: String) -> String? {
        headers[key.lowercased()]
    }

    /// The `ETag` header, which Repose sends back as `If-None-Match` on the next load.
    public var etag: String? {
        header(lowercasedKey: "etag")
    }

    /// The header called `key`, which is already lowercase: for Repose's own lookups of fixed names, which every
    /// load makes, without lowercasing the name each time.
    func header(lowercasedKey key: String) -> String? {
        headers[key]
    }

    /// Sets or removes one header.
    public mutating func setHeader(_ value: String?, forKey key: String) {
        headers[key.lowercased()] = value
    }

    /// The same metadata with other content.
    public func withContent<NewContent>(_ newContent: NewContent) -> Entity<NewContent> {
        Entity<NewContent>(
            content: newContent, contentType: contentType, charset: charset, lowercasedHeaders: headers,
            timestamp: timestamp)
    }

    /// Runs `parse`, a parser of this entity's content whose errors know nothing of the response, and gives a
    /// `RequestError` it throws this entity as its body (unless it has one) and this entity's time.
    func attributingErrors<T>(_ parse: () throws -> T) rethrows -> T {
        do {
            return try parse()
        } catch var error as RequestError {
            error.entity = error.entity ?? withContent(content as Any)
            error.timestamp = timestamp
            throw error
        }
    }
}

extension Entity: Sendable where ContentType: Sendable {}

extension Entity: CustomStringConvertible {
    /// The content type, the content's Swift type and the headers, with sensitive header values hidden:
    /// `Entity(text/plain, String, [content-type: "text/plain", set-cookie: <redacted>])`.
    public var description: String {
        "Entity(\(contentType), \(type(of: content as Any)), \(ReposeLog.describe(headers: headers)))"
    }
}

/// Small helpers for media type strings.
enum MediaType {
    /// What a response without a `Content-Type` is taken to be.
    static let defaultContentType = "application/octet-stream"

    /// The value of a parameter such as `charset` in a media type, wherever it stands among the parameters: the
    /// first one with a value, unquoted.
    static func parameter(_ name: String, in contentType: String) -> String? {
        // Most content types have no parameters at all; skip scanning them.
        guard contentType.utf8.contains(UInt8(ascii: ";")) else { return nil }
        var scanner = HeaderFieldScanner(contentType)
        scanner.skip { $0 != UInt8(ascii: ";") }  // the type and subtype
        var found: String?
        scanner.readParameters { parameter, value in
            if found == nil, parameter == name { found = value }
        }
        return found
    }
}
