import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider.SessionDelegate {
    /// Follows every redirect, but one to another origin without the headers that carry secrets: a server must
    /// not be able to send the app's credentials to a host of its choosing. See ``URLSessionProvider``.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(URLSessionProvider.Redirects.request(request, redirectedFrom: response.url))
    }
}

extension URLSessionProvider {
    /// What a request keeps when it is redirected.
    enum Redirects {
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
        static func isSameOrigin(_ first: URL, _ second: URL) -> Bool {
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
