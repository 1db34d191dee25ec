import Foundation
import Repose

/// How a ``PagedList`` finds the page after a page it loaded (L1).
///
/// `Page` is what the list's decoding function made of the page: an array of items, or a page envelope. Pick the
/// rule that matches the API:
///
/// ```swift
/// .linkHeader                                  // Link: <…?page=2>; rel="next" (GitHub, GitLab, …)
/// .pageNumber()                                // ?page=2, ?page=3, … until a page has no items
/// .cursor { (page: FeedPage) in page.next }    // ?cursor=… taken from the page's body
/// .custom { page, context in context.resource.optionalRelative(page.links.next) }
/// ```
public struct NextPage<Page> {
    let find: @MainActor (Page, PageContext) -> Resource?

    /// A rule from a function: given a decoded page and where it came from, the next page's resource, or `nil`
    /// when there is no next page.
    ///
    /// - Parameter find: Finds the next page.
    /// - Returns: The rule.
    public static func custom(_ find: @escaping @MainActor (Page, PageContext) -> Resource?) -> NextPage {
        NextPage(find: find)
    }

    /// The target of the page's `Link` header with `rel="next"`, resolved against the page's URL.
    public static var linkHeader: NextPage { linkHeader(relation: "next") }

    /// The target of the page's `Link` header with the relation type `relation`, resolved against the page's URL.
    ///
    /// A header may hold several links, quoted or unquoted relation types and several types in one `rel` (an
    /// unquoted `rel=next prefetch` names two); what cannot be read is skipped. A link whose `anchor` names another
    /// resource than the page describes that resource, so it is not the page's next. A target on another origin
    /// (scheme, host or port) than the page is not followed, since requests to it would carry the headers
    /// configured for this service; use ``custom(_:)`` to follow it.
    ///
    /// - Parameter relation: The relation type, compared without letter case.
    /// - Returns: The rule.
    public static func linkHeader(relation: String) -> NextPage {
        NextPage { _, context in
            let pageURL = context.resource.url
            guard let value = context.entity.header(forKey: "link"),
                let target = LinkHeader(value).target(
                    relation: relation, isSelf: { URLBuilding.relative(to: pageURL, $0) == pageURL })
            else { return nil }
            let next = context.resource.relative(target)
            return URLSessionProvider.Redirects.isSameOrigin(next.url, context.resource.url) ? next : nil
        }
    }

    /// The first page's URL with a page number parameter: `page=2` after the first page, then `page=3`, and so on,
    /// until a page holds no items.
    ///
    /// - Parameters:
    ///   - parameter: The query parameter's name.
    ///   - first: The number of the first page (the one the list starts at), usually 1, sometimes 0.
    /// - Returns: The rule.
    public static func pageNumber(parameter: String = "page", first: Int = 1) -> NextPage {
        NextPage { _, context in
            guard context.itemCount > 0 else { return nil }
            return context.firstPage.withParam(parameter, String(first + context.number + 1))
        }
    }

    /// The first page's URL with a cursor parameter whose value the page's content gives; no next page when the
    /// cursor is `nil` or empty.
    ///
    /// ```swift
    /// struct FeedPage: Decodable { var posts: [Post]; var next: String? }
    /// .cursor(parameter: "after") { (page: FeedPage) in page.next }
    /// ```
    ///
    /// - Parameters:
    ///   - parameter: The query parameter's name.
    ///   - cursor: Reads the cursor of the next page from a page.
    /// - Returns: The rule.
    public static func cursor(
        parameter: String = "cursor", _ cursor: @escaping @MainActor (Page) -> String?
    ) -> NextPage {
        NextPage { page, context in
            guard let value = cursor(page), !value.isEmpty else { return nil }
            return context.firstPage.withParam(parameter, value)
        }
    }
}

/// Where a page came from, for a ``NextPage`` rule.
@MainActor
public struct PageContext {
    /// The page's resource (the closure's other argument, the page, is its decoded content).
    public let resource: Resource
    /// The list's first page.
    public let firstPage: Resource
    /// The page's place in the chain: 0 for the first page, 1 for the next one, and so on.
    public let number: Int
    /// How many items the page holds.
    public let itemCount: Int
    /// The page's data: its content, headers (such as `Link`) and content type.
    public let entity: Entity<Any>
}
