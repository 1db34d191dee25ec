import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionProvider.SessionDelegate {
    #if canImport(FoundationNetworking)
    /// Gives a transport failure that swift-corelibs-foundation reports as `URLError(.unknown)` the code Apple's
    /// Foundation reports for the same failure, keeping the original as `NSUnderlyingErrorKey`.
    ///
    /// swift-corelibs-foundation passes on libcurl errors it has no code for as `.unknown`, with libcurl's text as
    /// the description: "transfer closed with 99000 bytes remaining to read" for a connection that ended before
    /// the announced body, "Out of memory" for a response header over libcurl's limit. After the response's head
    /// arrived, such a failure is a connection lost mid-body (`.networkConnectionLost`); before it, the response
    /// could not be read (`.cannotParseResponse`).
    static func clarified(_ error: any Error, afterResponse response: URLResponse?) -> any Error {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorUnknown else { return error }
        var userInfo = nsError.userInfo
        userInfo[NSUnderlyingErrorKey] = nsError
        userInfo[NSLocalizedDescriptionKey] = nil
        return URLError(response == nil ? .cannotParseResponse : .networkConnectionLost, userInfo: userInfo)
    }
    #else
    /// Apple's Foundation gives its transport failures specific codes already: they pass through unchanged.
    static func clarified(_ error: any Error, afterResponse response: URLResponse?) -> any Error {
        error
    }
    #endif
}
