import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        let found = withTransfer(of: task) { transfer -> (Transfer, isTooMany: Bool) in
            transfer.redirectCount += 1
            let isTooMany = transfer.redirectCount > redirects.maximumCount
            if isTooMany { transfer.redirectFailure = URLError(.httpTooManyRedirects) }
            return (transfer, isTooMany)
        }
        guard let (transfer, isTooMany) = found else {
            completionHandler(redirects.request(request, redirectedFrom: response.url))
            return
        }
        guard !isTooMany,
            var next = redirects.request(
                request, redirectedFrom: response.url, status: response.statusCode,
                previousMethod: (task.currentRequest ?? task.originalRequest)?.httpMethod ?? "GET",
                body: transfer.replayableBody)
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
        let body = withTransfer(of: task) { $0.replayableBody } ?? nil
        completionHandler(body?.freshStream)
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
