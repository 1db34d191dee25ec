import Foundation
import Repose

extension Service {
    /// A list of `Decodable` items whose pages are JSON arrays, starting at `firstPage`.
    ///
    /// ```swift
    /// struct Repo: Decodable { let id: Int; let name: String }
    /// let repos = service.pagedList(startingAt: service.resource("/users/ada/repos"), items: [Repo].self)
    /// ```
    ///
    /// A page's content is decoded once, when its data arrives. Content that is already `[Item]` is taken as it
    /// is: configure `configureTransformer(_:decoding:decoder:requestMethods:description:)` for the pages' URLs
    /// and decoding runs off the main actor, in the pipeline. Otherwise the list decodes bytes, text or parsed
    /// JSON itself; a page it cannot decode fails with `RequestError.Cause.ModelDecodingFailed` as the cause.
    ///
    /// - Parameters:
    ///   - firstPage: The first page.
    ///   - items: The type of a page's content: an array of items.
    ///   - nextPage: How to find the page after a page; the `Link` header's `rel="next"` by default.
    ///   - options: The maximum page count and the item id.
    ///   - decoder: The decoder for pages the list decodes itself.
    /// - Returns: The list. It loads nothing yet.
    public func pagedList<Item: Decodable>(
        startingAt firstPage: Resource,
        items: [Item].Type,
        nextPage: NextPage<[Item]> = .linkHeader,
        options: PagedList<Item>.Options = .init(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> PagedList<Item> {
        pagedList(
            startingAt: firstPage, decode: { try PageDecoding.decode([Item].self, from: $0, decoder: decoder) },
            items: { $0 }, nextPage: nextPage, options: options)
    }

    /// A list whose pages are a `Decodable` envelope holding the items, such as `{"items": […], "next": "…"}`.
    ///
    /// ```swift
    /// struct FeedPage: Decodable { var posts: [Post]; var next: String? }
    /// let feed = service.pagedList(
    ///     startingAt: service.resource("/feed"), pages: FeedPage.self, items: \.posts,
    ///     nextPage: .cursor { $0.next })
    /// ```
    ///
    /// Decoding works as for ``pagedList(startingAt:items:nextPage:options:decoder:)``, with `Page` for `[Item]`.
    ///
    /// - Parameters:
    ///   - firstPage: The first page.
    ///   - pages: The type of a page's content.
    ///   - items: The items of a page.
    ///   - nextPage: How to find the page after a page; the `Link` header's `rel="next"` by default.
    ///   - options: The maximum page count and the item id.
    ///   - decoder: The decoder for pages the list decodes itself.
    /// - Returns: The list. It loads nothing yet.
    public func pagedList<Page: Decodable, Item>(
        startingAt firstPage: Resource,
        pages: Page.Type,
        items: @escaping (Page) -> [Item],
        nextPage: NextPage<Page> = .linkHeader,
        options: PagedList<Item>.Options = .init(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> PagedList<Item> {
        pagedList(
            startingAt: firstPage, decode: { try PageDecoding.decode(Page.self, from: $0, decoder: decoder) },
            items: items, nextPage: nextPage, options: options)
    }

    /// A list whose pages the app reads with its own function, from any content.
    ///
    /// ```swift
    /// let names = service.pagedList(
    ///     startingAt: service.resource("/names"),
    ///     decode: { entity in entity.jsonArray.compactMap { $0 as? String } },
    ///     items: { $0 }, nextPage: .pageNumber())
    /// ```
    ///
    /// - Parameters:
    ///   - firstPage: The first page.
    ///   - decode: Makes a page of a page's data, once when it arrives; an error it throws is the list's
    ///     ``PagedListState/latestError`` (a `RequestError` as it is, anything else as its cause).
    ///   - items: The items of a page.
    ///   - nextPage: How to find the page after a page; the `Link` header's `rel="next"` by default.
    ///   - options: The maximum page count and the item id.
    /// - Returns: The list. It loads nothing yet.
    public func pagedList<Page, Item>(
        startingAt firstPage: Resource,
        decode: @escaping @MainActor (Entity<Any>) throws -> Page,
        items: @escaping (Page) -> [Item],
        nextPage: NextPage<Page> = .linkHeader,
        options: PagedList<Item>.Options = .init()
    ) -> PagedList<Item> {
        let reader = PageReader<Item> { entity, page, first, number in
            let decoded = try decode(entity)
            let pageItems = items(decoded)
            let context = PageContext(
                resource: page, firstPage: first, number: number, itemCount: pageItems.count, entity: entity)
            return (pageItems, nextPage.find(decoded, context))
        }
        return PagedList(startingAt: firstPage, options: options, reader: reader)
    }
}

/// A page's entity decoded as its model: as the model stage decodes, and from JSON another stage parsed already.
enum PageDecoding {
    static func decode<Model: Decodable>(
        _ model: Model.Type, from entity: Entity<Any>, decoder: JSONDecoder
    ) throws -> Model {
        let json = entity.content
        var bytes: Data?
        if !(json is Model), json is [Any] || json is [String: Any], JSONSerialization.isValidJSONObject(json) {
            bytes = try JSONSerialization.data(withJSONObject: json)
        }
        return try decodeModel(Model.self, from: entity, bytes: bytes, decoder: decoder)
    }
}
