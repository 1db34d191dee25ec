/// Convenience accessors for anything that holds an entity: an ``Entity``, a `Resource` (its latest data), or a
/// ``RequestError`` (its error body).
///
/// Each accessor returns an empty value instead of `nil` when there is no content or it has another type, so that
/// the same UI code can both fill and clear a view.
public protocol TypedContentAccessors {
    /// The entity the accessors read.
    var entityForTypedContentAccessors: Entity<Any>? { get }
}

extension TypedContentAccessors {
    /// The content cast to the type the call site expects, or `defaultContent` when absent or of another type.
    ///
    /// `defaultContent` is evaluated only when it is needed.
    public func typedContent<T>(ifNone defaultContent: @autoclosure () -> T) -> T {
        guard let content = entityForTypedContentAccessors?.content else { return defaultContent() }
        return (content as? T) ?? defaultContent()
    }

    /// The content cast to the type the call site expects, or `nil`.
    public func typedContent<T>() -> T? {
        typedContent(ifNone: nil)
    }

    /// The content as text, or `""`.
    public var text: String { typedContent(ifNone: "") }

    /// The content as a JSON object, or an empty dictionary.
    public var jsonDict: [String: Any] { typedContent(ifNone: [:]) }

    /// The content as a JSON array, or an empty array.
    public var jsonArray: [Any] { typedContent(ifNone: []) }
}

extension Entity: TypedContentAccessors {
    /// The entity itself, with its content seen as `Any`.
    public var entityForTypedContentAccessors: Entity<Any>? {
        withContent(content as Any)
    }
}
