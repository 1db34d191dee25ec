import Foundation

/// How a streamed resource's content grows from its body as the body arrives (rule U3): what the body is read as,
/// the content before the first piece, and the app's reducer from (content so far, next piece) to the new content.
///
/// Configure it for the resources that stream, or give it to one load:
///
/// ```swift
/// api.configure("/chats/*/reply") {
///     $0.streamedContent = .text()
/// }
/// api.configure("/feed") {
///     $0.streamedContent = .values(of: Story.self)
/// }
/// ```
///
/// While the body arrives, ``Resource/latestData`` holds the content so far, ``Resource/isPartial`` is true and
/// observers hear ``ResourceEvent/newData(_:)`` with `.partial` as it grows; the load completes with the final
/// content as `.network`. A failure mid-stream keeps the content that arrived, still partial, beside the error.
/// The reducer runs off the main actor, in the order of the body.
public struct StreamedContent: Sendable {
    /// What a reload does with the content the resource already holds.
    public enum Reload: Sendable {
        /// The new body's content replaces it, from its first piece on; until then the old content shows.
        case replace
        /// The new body's pieces go on from the content the resource holds, when it has the reducer's type.
        case append
    }

    /// What a reload does with the content the resource already holds.
    public let reload: Reload
    /// Reads the body, with the resource's content to go on from (an append), telling each content so far.
    let read:
        @Sendable (StreamedRequest, (any Sendable)?, @escaping @Sendable (any Sendable) -> Void) async throws ->
            any Sendable
    /// The resource's content, when the reload appends and it has the reducer's type: read on the main actor.
    let current: @MainActor (Resource) -> (any Sendable)?

    init<Element: Sendable, Content: Sendable>(
        elements: @escaping @Sendable (StreamedRequest) -> StreamedElements<Element>, initial: Content,
        reload: Reload, reduce: @escaping @Sendable (Content, Element) -> Content
    ) {
        self.reload = reload
        read = { request, current, grew in
            var content = current as? Content ?? initial
            for try await element in elements(request) {
                content = reduce(content, element)
                grew(content)
            }
            return content
        }
        current = { resource in
            guard reload == .append, let data = resource.latestData else { return nil }
            return data.content as? Content
        }
    }

    /// The body as text, each piece appended to a `String` as it arrives (a character split between pieces waits
    /// for its rest): a chat reply's tokens, a build log.
    public static func text(reload: Reload = .replace) -> StreamedContent {
        StreamedContent(elements: \.text, initial: "", reload: reload) { $0 + $1 }
    }

    /// The body's text lines, reduced into `Content` from `initial`.
    public static func lines<Content: Sendable>(
        initial: Content, reload: Reload = .replace, _ reduce: @escaping @Sendable (Content, String) -> Content
    ) -> StreamedContent {
        StreamedContent(elements: \.lines, initial: initial, reload: reload, reduce: reduce)
    }

    /// The body as newline-delimited JSON (NDJSON, JSON Lines): one `Value` per line, collected in an array in the
    /// order they arrive.
    public static func values<Value: Decodable & Sendable>(
        of type: Value.Type, reload: Reload = .replace, decoder: JSONDecoder = JSONDecoder()
    ) -> StreamedContent {
        values(of: type, initial: [Value](), reload: reload, decoder: decoder) { $0 + [$1] }
    }

    /// The body as newline-delimited JSON (NDJSON, JSON Lines): one `Value` per line, reduced into `Content` from
    /// `initial`.
    public static func values<Value: Decodable & Sendable, Content: Sendable>(
        of type: Value.Type, initial: Content, reload: Reload = .replace, decoder: JSONDecoder = JSONDecoder(),
        _ reduce: @escaping @Sendable (Content, Value) -> Content
    ) -> StreamedContent {
        let decoder = UncheckedDecoder(decoder)
        return StreamedContent(
            elements: { $0.values(of: type, decoder: decoder.value) }, initial: initial, reload: reload,
            reduce: reduce)
    }

    /// The body's pieces as the network delivers them, reduced into `Content` from `initial`.
    public static func bytes<Content: Sendable>(
        initial: Content, reload: Reload = .replace, _ reduce: @escaping @Sendable (Content, Data) -> Content
    ) -> StreamedContent {
        StreamedContent(elements: \.bytes, initial: initial, reload: reload, reduce: reduce)
    }
}
