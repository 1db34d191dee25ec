import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default networking provider: sends requests with `URLSession`.
///
/// Create one with a session configuration and the provider owns its session: one session and one delegate for every
/// request (loads, writes, uploads, downloads, event streams), which streams each response to its sink as it arrives
/// and reports upload progress, keeps secret headers from following a redirect to another origin, and invalidates the
/// session when it goes away. One session means one policy for redirects, and one connection pool whose per-host
/// limit (`httpMaximumConnectionsPerHost`) holds for every kind of request; an event stream holds one of those
/// connections for as long as it is open.
///
/// ```swift
/// let configuration = URLSessionProvider.defaultConfiguration
/// configuration.timeoutIntervalForRequest = 20
/// let provider = URLSessionProvider(configuration: configuration)
/// ```
///
/// **Cookies.** By default the provider neither stores nor sends cookies of its own accord, whatever the
/// configuration says: the `Cookie` headers your configuration or requests set are the only cookies sent, and a
/// `Set-Cookie` from the server changes nothing. Pass `keepsCookies: true` for a cookie jar: then cookies the server
/// sets are kept in memory (in the configuration's cookie storage, or a private one if it has none) and sent back,
/// replacing a `Cookie` header you set, until ``removeAllCookies()`` clears them (on log-out, say). A cookie set by
/// any response of a redirect chain (a login's `302`, say) goes with the rest of the chain and later requests.
///
/// **Caching.** ``defaultConfiguration`` has no `URLCache`: Repose keeps data, freshness and ETags itself, and no
/// response body is written to disk by `URLSession`. A configuration you pass keeps the cache it has.
///
/// **Redirects.** A redirect to another origin (a different scheme, host or port) is followed without the
/// `Authorization`, `Proxy-Authorization` and `Cookie` headers, nor any header whose name says it carries a secret
/// (one containing `auth`, `token`, `secret`, `session`, `password`, `csrf`, `xsrf`, `signature`, `credential`,
/// `api-key` or `apikey`). A redirect on the same origin keeps every header. As browsers do, a 307 or 308 resends
/// the method and the body (a multipart body is read again from its files), a 301 or 302 turns a POST into a GET
/// without a body, and a 303 turns any method but HEAD into a GET without a body; a body in a stream of your own,
/// which cannot be read twice, is not resent: the redirect is then the response. More than 20 redirects fail with
/// `URLError(.httpTooManyRedirects)`.
///
/// **Threads.** Starting and cancelling a request return at once: the provider makes, resumes and cancels each task
/// on a queue of its own, in the order the calls came, so the caller, the main actor, never waits for the network
/// (on Linux, swift-corelibs-foundation makes and cancels a task with a synchronous call onto the session's network
/// queue, which can be busy for seconds with another transfer's body).
///
/// The delegate runs on the session's queue (on Linux, inline on its network queue, which every session of the
/// process shares): it hands each piece of a body to the sink there, and the sink moves anything slow off it.
///
/// Hand it a session you made yourself (say, one whose delegate answers authentication challenges) and it uses
/// that session as is: cookies, cache and redirects follow that session's configuration and delegate. The body then
/// arrives whole, with the task's completion, because `URLSession` only streams it (and reports upload progress) to
/// the session's own delegate: such a provider reports no progress, and an event stream receives nothing until its
/// body ends.
///
/// HTTP error statuses are responses, not errors: a 404 or a 500 reaches the sink with its status and body. Only
/// transport failures (no connection, a timeout, a connection dropped mid-body, a cancelled task) and responses
/// that are not HTTP end with an error: the one `URLSession` reported, or `URLError(.badServerResponse)`.
public final class URLSessionProvider: NetworkingProvider {
    /// The session that sends the requests.
    public let session: URLSession
    /// Per-task state for sessions the provider owns; `nil` for a session passed in from outside.
    let delegate: SessionDelegate?
    /// Where tasks are created, resumed and cancelled, in the order the calls came: see `startTransfer`.
    let starter = DispatchQueue(label: "Repose.URLSessionProvider.start")

    /// A fresh copy of the configuration the provider uses by default: an ephemeral configuration without
    /// a `URLCache`.
    ///
    /// Repose keeps track of data, freshness and ETags itself, so `URLSession`'s own HTTP cache would only
    /// answer revalidations behind Repose's back and copy every body once more.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    /// Creates a provider with its own session, which streams every body as it arrives.
    ///
    /// - Parameters:
    ///   - configuration: The configuration for the provider's session; ``defaultConfiguration`` unless given.
    ///     The provider works on a copy, with the cookie settings `keepsCookies` asks for and without a `URLCache`:
    ///     Repose is the cache, and on Linux a task cancelled while a `URLCache` is consulted can stop the process
    ///     (swift-corelibs-foundation reports the cancel after it has forgotten the task).
    ///   - keepsCookies: Whether the session keeps the cookies servers set and sends them back. `false` by
    ///     default: no cookie storage, and only the `Cookie` headers the app sets are sent.
    public init(
        configuration: URLSessionConfiguration = URLSessionProvider.defaultConfiguration, keepsCookies: Bool = false
    ) {
        let configuration = Self.sessionConfiguration(from: configuration, keepsCookies: keepsCookies)
        #if canImport(FoundationNetworking)
        // swift-corelibs-foundation queues one operation per delegate callback, that is per 16 KB of body: a thread
        // hop each time. The delegate runs on the session's own queue instead (see `InlineOperationQueue`).
        let delegateQueue: OperationQueue? = InlineOperationQueue()
        #else
        // A nil queue gives the session its own serial queue: the delegate already runs off the network's queue.
        let delegateQueue: OperationQueue? = nil
        #endif
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    /// Creates a provider that sends requests with a session you configured, delegate and all.
    ///
    /// Each body arrives whole and without progress, because `URLSession` streams it only to the session's own
    /// delegate. Cookies, caching and redirects are up to the session. Use ``init(configuration:keepsCookies:)`` when any of that matters.
    /// On Linux, give it a session without a `URLCache` (``defaultConfiguration`` has none): there, a task cancelled
    /// while the cache is consulted can stop the process.
    ///
    /// - Parameter session: The session to use. The provider neither invalidates it nor changes it.
    public init(session: URLSession) {
        self.session = session
        self.delegate = nil
    }

    deinit {
        // A session retains its delegate until it is invalidated; running tasks still finish and complete.
        if delegate != nil {
            session.finishTasksAndInvalidate()
        }
    }

    /// Forgets every cookie the session keeps, so that no later request sends them.
    ///
    /// Call it when the user logs out. It does nothing for a provider without a cookie jar (the default). For a
    /// session passed to ``init(session:)`` it clears that session's cookie storage, which may be shared with
    /// other sessions.
    public func removeAllCookies() {
        guard let storage = session.configuration.httpCookieStorage else { return }
        for cookie in storage.cookies ?? [] {
            storage.deleteCookie(cookie)
        }
    }
}

extension URLSessionProvider {
    /// A copy of `configuration` without a `URLCache`, that keeps and sends cookies only if `keepsCookies`.
    static func sessionConfiguration(
        from configuration: URLSessionConfiguration, keepsCookies: Bool
    ) -> URLSessionConfiguration {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        if keepsCookies {
            // An ephemeral configuration's storage is new, private and in memory only.
            copy.httpCookieStorage = copy.httpCookieStorage ?? URLSessionConfiguration.ephemeral.httpCookieStorage
            copy.httpShouldSetCookies = true
            if copy.httpCookieAcceptPolicy == .never {
                copy.httpCookieAcceptPolicy = .always
            }
        } else {
            copy.httpCookieStorage = nil
            copy.httpShouldSetCookies = false
            copy.httpCookieAcceptPolicy = .never
        }
        return copy
    }
}
