import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider.SessionDelegate {
    /// Gives a transport failure that swift-corelibs-foundation reports with a misleading code the code Apple's
    /// Foundation reports for the same failure, keeping the original as `NSUnderlyingErrorKey`.
    ///
    /// swift-corelibs-foundation passes on libcurl errors it has no code for as `.unknown`, with libcurl's text as
    /// the description: "transfer closed with 99000 bytes remaining to read" for a connection that ended before
    /// the announced body, "Out of memory" for a response header over libcurl's limit. After the response's head
    /// arrived, such a failure is a connection lost mid-body (`.networkConnectionLost`); before it, the response
    /// could not be read (`.cannotParseResponse`).
    ///
    /// It also reports a response libcurl cannot read as HTTP (a malformed status line: "Unsupported HTTP version
    /// in response", "Received HTTP/0.9 when not allowed") as `.unsupportedURL`, the code for an address that
    /// cannot be loaded. For an `http` or `https` address, which libcurl does load, that is a response that could
    /// not be read (rule W9): the user is not told the address is wrong when the server's answer is.
    ///
    /// Apple's Foundation gives its transport failures specific codes already: they pass through unchanged.
    static func clarified(_ error: any Error, afterResponse response: URLResponse?, url: URL?) -> any Error {
        #if canImport(FoundationNetworking)
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return error }
        let code: URLError.Code
        switch nsError.code {
        case NSURLErrorUnknown:
            code = response == nil ? .cannotParseResponse : .networkConnectionLost
        case NSURLErrorUnsupportedURL where ["http", "https"].contains(url?.scheme?.lowercased() ?? ""):
            code = .cannotParseResponse
        default:
            return error
        }
        var userInfo = nsError.userInfo
        userInfo[NSUnderlyingErrorKey] = nsError
        userInfo[NSLocalizedDescriptionKey] = nil
        return URLError(code, userInfo: userInfo)
        #else
        return error
        #endif
    }
}
