import Foundation

/// How a resource should look while a write is on its way: a layer over the server's data, shown at once and
/// removed on its own when the write ends.
///
/// ```swift
/// repo.request(.patch, json: ["starred": true], showing: .merge(["starred": true]))
/// comments.request(.post, json: draft, showing: .update { ($0 as? [Any] ?? []) + [draft] })
/// comment.request(.delete, showing: .remove)
/// ```
///
/// A resource keeps the server's data beneath its pending changes and shows the server's data with every pending
/// change applied in the order the writes started. Removing one change (its write failed) recomputes what
/// the resource shows from the others; nothing is restored from a snapshot.
///
/// ``merge(_:)``, ``replace(with:)`` and ``remove`` are data, so the outbox keeps them on disk with their
/// write and shows them again after a relaunch. A closure (``update(_:)``) cannot be written to disk: a
/// write kept across a launch is still sent, but its closure change shows only in the launch that made it.
public struct OptimisticChange {
    enum Kind {
        case merge([String: Any])
        case replace(Any)
        case remove
        case update((Any?) -> Any?)
    }

    let kind: Kind

    /// Merges `patch` into JSON content by the rules of a JSON merge patch (RFC 7386): each key replaces the
    /// content's value, `NSNull()` removes the key, and nested dictionaries merge the same way. Content that is not a
    /// dictionary, or no data at all, counts as an empty dictionary.
    public static func merge(_ patch: [String: Any]) -> OptimisticChange {
        OptimisticChange(kind: .merge(patch))
    }

    /// Shows `content` in place of the data, keeping its content type and headers.
    public static func replace(with content: Any) -> OptimisticChange {
        OptimisticChange(kind: .replace(content))
    }

    /// Shows no data: the resource is being deleted.
    public static var remove: OptimisticChange {
        OptimisticChange(kind: .remove)
    }

    /// Computes the content to show from the content beneath (`nil` without data); returning `nil` shows no data.
    ///
    /// The closure runs whenever the resource recomputes what it shows (a change starts or ends, data arrives), so
    /// keep it a function of its input: it cannot touch resources, which live on the main actor.
    public static func update(_ transform: @escaping (Any?) -> Any?) -> OptimisticChange {
        OptimisticChange(kind: .update(transform))
    }

    /// Changes content of type `Content` in place; content of another type, or no data, is shown unchanged.
    ///
    /// ```swift
    /// profile.request(.patch, json: ["name": "Ada"], showing: .update(User.self) { $0.name = "Ada" })
    /// ```
    public static func update<Content>(
        _ type: Content.Type, _ change: @escaping (inout Content) -> Void
    ) -> OptimisticChange {
        update { content in
            guard var typed = content as? Content else { return content }
            change(&typed)
            return typed
        }
    }

    /// The entity to show once this change is applied over `entity`, made at `time` when there was none.
    func applied(to entity: Entity<Any>?, at time: TimeInterval) -> Entity<Any>? {
        let content: Any?
        switch kind {
        case .merge(let patch):
            content = JSONMergePatch.apply(patch, to: entity?.content)
        case .replace(let replacement):
            content = replacement
        case .remove:
            return nil
        case .update(let transform):
            content = transform(entity?.content)
        }
        guard let content else { return nil }
        guard var shown = entity else {
            return Entity<Any>(content: content, contentType: Self.contentType(of: content), timestamp: time)
        }
        shown.content = content
        return shown
    }

    /// The content type of data that exists only as a pending change.
    private static func contentType(of content: Any) -> String {
        switch content {
        case is String: "text/plain; charset=utf-8"
        case is Data: "application/octet-stream"
        case is [String: Any], is [Any]: "application/json"
        default: "application/x-repose-local"
        }
    }
}

/// JSON merge patches (RFC 7386) over parsed JSON.
enum JSONMergePatch {
    /// `patch` merged into `target`: a target that is not a dictionary counts as an empty one.
    static func apply(_ patch: [String: Any], to target: Any?) -> [String: Any] {
        var result = target as? [String: Any] ?? [:]
        for (key, value) in patch {
            if value is NSNull {
                result.removeValue(forKey: key)
            } else if let nested = value as? [String: Any] {
                result[key] = apply(nested, to: result[key])
            } else {
                result[key] = value
            }
        }
        return result
    }
}
