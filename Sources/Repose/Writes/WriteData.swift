import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A write as data: everything needed to send it again, with no closure, so that the outbox can keep it on
/// disk and build a new request from it at each attempt (rule M11).
package struct WriteData: Codable, Sendable, Equatable {
    /// The HTTP method's name.
    package var method: String
    /// The absolute URL of the resource the request goes to.
    package var url: String
    /// The exact body bytes, if any.
    package var body: Data?
    /// The write's own headers, `Content-Type` included; configured headers are not here (they apply again
    /// at each attempt), nor, once on disk, any header that carries a secret.
    package var headers: [String: String]
    /// Sent as `Idempotency-Key` on every attempt, unchanged (rule M10); `nil` for a write not meant to be
    /// sent twice.
    package var idempotencyKey: String?
    /// When the write was made, on the service's clock.
    package var createdAt: TimeInterval
    /// The absolute URL of the resource its optimistic change shows on, when it is not ``url``.
    package var changeTarget: String?
    /// Its optimistic change, when the change is data.
    package var change: StoredChange?
    /// What its success makes stale, when the call said so itself (``RequestOptions/invalidation``).
    package var invalidation: InvalidationScope?

    var requestMethod: RequestMethod {
        RequestMethod(rawValue: method) ?? .post
    }

    /// ``url`` as a `URL`, for the outbox's public items. It is made from a resource's URL, so it parses; a string
    /// that does not (only a damaged file could hold one) reads as the root file URL rather than crashing.
    var parsedURL: URL {
        URL(string: url) ?? URL(fileURLWithPath: "/")
    }

    /// The body and headers of an attempt, put on a request that configured headers are already on.
    func addBody(to urlRequest: inout URLRequest) {
        urlRequest.httpBody = body
        for (name, value) in headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if let idempotencyKey {
            urlRequest.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        }
    }
}

/// An ``OptimisticChange`` that is data, as the outbox keeps it.
package enum StoredChange: Codable, Sendable, Equatable {
    /// A JSON merge patch, as JSON.
    case merge(Data)
    /// JSON content, as JSON.
    case replaceJSON(Data)
    /// Text content.
    case replaceText(String)
    /// Bytes.
    case replaceData(Data)
    case remove

    /// The change again; `nil` for stored JSON that no longer parses (a damaged file).
    var change: OptimisticChange? {
        switch self {
        case .merge(let json):
            return (try? JSONSerialization.jsonObject(with: json)).flatMap { $0 as? [String: Any] }.map { .merge($0) }
        case .replaceJSON(let json):
            return (try? JSONSerialization.jsonObject(with: json)).map { .replace(with: $0) }
        case .replaceText(let text):
            return .replace(with: text)
        case .replaceData(let data):
            return .replace(with: data)
        case .remove:
            return .remove
        }
    }
}

extension OptimisticChange {
    /// This change as data, or `nil` for a closure or content that is not JSON, text or bytes.
    var stored: StoredChange? {
        switch kind {
        case .merge(let patch):
            return (try? RequestBody.json(patch)).map { .merge($0) }
        case .replace(let text as String):
            return .replaceText(text)
        case .replace(let data as Data):
            return .replaceData(data)
        case .replace(let content):
            return (try? RequestBody.json(content)).map { .replaceJSON($0) }
        case .remove:
            return .remove
        case .update:
            return nil
        }
    }
}
