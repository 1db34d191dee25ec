import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider {
    /// What a request keeps when it is redirected.
    package enum Redirects {
        /// The most redirects a request follows, the number both Foundations allow.
        static let maximumCount = 20
        /// Headers that describe a body (the Fetch standard's request-body headers), dropped with the body when a
        /// redirect turns the request into a GET.
        static let bodyHeaderNames = [
            "Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location",
        ]

        /// The request to send to the URL of Foundation's `proposed` one, as browsers build it (rule W1): a 303
        /// turns any method but HEAD into a GET, a 301 or 302 turns a POST into a GET, each without a body; any
        /// other redirect (307, 308, or a 301 or 302 of another method) resends the method and the body of
        /// `original` (the request as Repose made it), a streamed one read again from the start. Secret headers stay
        /// behind on another origin (see ``request(_:redirectedFrom:)``). `nil` when the body must go again but
        /// cannot be read again (a stream that is not a ``ReplayableBodyStream``): then the redirect itself is the
        /// response.
        static func request(
            _ proposed: URLRequest, redirectedFrom origin: URL?, status: Int, previousMethod: String,
            bodyOf original: URLRequest?
        ) -> URLRequest? {
            var next = request(proposed, redirectedFrom: origin)
            let method = previousMethod.uppercased()
            let becomesGet =
                (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST")
            next.httpBody = nil
            next.httpBodyStream = nil
            if becomesGet {
                next.httpMethod = "GET"
                for name in bodyHeaderNames {
                    next.setValue(nil, forHTTPHeaderField: name)
                }
                return next
            }
            next.httpMethod = previousMethod
            if let stream = original?.httpBodyStream {
                // A stream the app made was read once and cannot be read again.
                guard let replayable = stream as? any ReplayableBodyStream else { return nil }
                next.httpBodyStream = replayable.replay()
            } else if let data = original?.httpBody, !data.isEmpty {
                next.httpBody = data
            }
            return next
        }

        /// Header names that carry credentials, lowercased.
        static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]
        /// Parts of header names that say the header carries a secret (`X-Auth-Token`, `X-API-Key`, …).
        static let secretNameParts = [
            "auth", "token", "secret", "session", "password", "csrf", "xsrf", "signature", "credential", "api-key",
            "apikey",
        ]

        /// `request` as it should go to its new URL: unchanged on the same origin as `origin`, without its secret
        /// headers on another (or when the origin is unknown).
        static func request(_ request: URLRequest, redirectedFrom origin: URL?) -> URLRequest {
            if let origin, let target = request.url, isSameOrigin(origin, target) {
                return request
            }
            var stripped = request
            for name in (request.allHTTPHeaderFields ?? [:]).keys where isSecret(headerNamed: name) {
                stripped.setValue(nil, forHTTPHeaderField: name)
            }
            return stripped
        }

        /// Whether a header's value is a secret that must not leave its origin; the name is matched in any case.
        /// Names the app added to ``ReposeLog/sensitiveNames`` count too, so one list serves logs and redirects; the
        /// built-in parts are wider than the log's, since dropping a header on a cross-origin redirect costs little.
        static func isSecret(headerNamed name: String) -> Bool {
            let lowercased = name.lowercased()
            return secretHeaderNames.contains(lowercased) || secretNameParts.contains { lowercased.contains($0) }
                || ReposeLog.sensitiveNames.contains(name)
        }

        /// Whether two URLs share scheme, host and port (the port the scheme implies when none is written).
        package static func isSameOrigin(_ first: URL, _ second: URL) -> Bool {
            guard let scheme = first.scheme?.lowercased(), scheme == second.scheme?.lowercased(),
                let host = first.host?.lowercased(), host == second.host?.lowercased()
            else { return false }
            return effectivePort(of: first, scheme: scheme) == effectivePort(of: second, scheme: scheme)
        }

        private static func effectivePort(of url: URL, scheme: String) -> Int? {
            url.port ?? ["http": 80, "https": 443, "ws": 80, "wss": 443][scheme]
        }
    }
}

extension URLSessionProvider.SessionDelegate {
    /// Follows a redirect as browsers do (rule W1), without the headers that carry secrets on another origin: a
    /// server must not be able to send the app's credentials to a host of its choosing. See ``URLSessionProvider``.
    ///
    /// swift-corelibs-foundation drops the body of every redirect it follows, and sends the method with an empty
    /// body. There, a redirect that must resend a body is refused, and the provider sends the new request itself,
    /// as a new task that keeps this one's transfer (see `Transfer.follow`).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let redirects = URLSessionProvider.Redirects.self
        let isTooMany = withTransfer(of: task) { transfer -> Bool in
            transfer.redirectCount += 1
            let isTooMany = transfer.redirectCount > redirects.maximumCount
            if isTooMany { transfer.redirectFailure = URLError(.httpTooManyRedirects) }
            return isTooMany
        }
        guard let isTooMany else {
            completionHandler(redirects.request(request, redirectedFrom: response.url))
            return
        }
        guard !isTooMany,
            var next = redirects.request(
                request, redirectedFrom: response.url, status: response.statusCode,
                previousMethod: (task.currentRequest ?? task.originalRequest)?.httpMethod ?? "GET",
                bodyOf: task.originalRequest)
        else {
            completionHandler(nil)
            return
        }
        next = Self.addingJarCookies(to: next, from: session.configuration)
        #if canImport(FoundationNetworking)
        if next.httpBody != nil || next.httpBodyStream != nil {
            _ = withTransfer(of: task) { $0.pendingRedirect = next }
            completionHandler(nil)
            return
        }
        #endif
        completionHandler(next)
    }

    /// Gives URLSession a new stream of a replayable body, from its start, when it must send the body again (a
    /// redirect or an authentication retry on Apple platforms).
    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping (InputStream?) -> Void
    ) {
        completionHandler(Self.bodyStream(of: task)?.replay())
    }

    /// `request` with the cookies the jar holds for its URL (rule W2), replacing the `Cookie` header it carries,
    /// when the configuration keeps and sends cookies.
    ///
    /// swift-corelibs-foundation stores the cookies a redirect sets but adds none to a request that the delegate
    /// answered for it: without this, a login's `302` with `Set-Cookie` would lead to a page asked for without it.
    /// Apple's Foundation adds them itself; adding them here first changes nothing there.
    static func addingJarCookies(to request: URLRequest, from configuration: URLSessionConfiguration) -> URLRequest {
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage,
            let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty,
            let value = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !value.isEmpty
        else { return request }
        var request = request
        request.setValue(value, forHTTPHeaderField: "Cookie")
        return request
    }
}
