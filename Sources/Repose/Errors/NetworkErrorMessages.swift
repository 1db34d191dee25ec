import Foundation

/// Display messages for transport failures.
///
/// Foundation's own descriptions of `URLError`s range from fine (Apple's) to misleading (on Linux, libcurl's
/// "Out of memory" for an oversized header, or "The operation could not be completed. (NSURLErrorDomain error
/// -1000.)"), so every error of `NSURLErrorDomain` gets Repose's own message, the same on every platform. Other
/// errors keep their own description when they have one.
enum NetworkErrorMessages {
    /// The message for failures without a better one.
    static let generalMessage = "The network request failed."

    /// The `RequestError` for a failure a networking provider reported: `error` is its cause, and the message is
    /// Repose's for a `URLError`, the error's own description otherwise. A `RequestError` passes through as it is.
    static func requestError(for error: any Error, timestamp: TimeInterval) -> RequestError {
        if !(error is RequestError), let message = message(forURLError: error) {
            return RequestError(userMessage: message, cause: error, timestamp: timestamp)
        }
        return RequestError(wrapping: error, fallbackMessage: generalMessage, timestamp: timestamp)
    }

    /// Repose's message for an error of `NSURLErrorDomain`; `nil` for other errors.
    static func message(forURLError error: any Error) -> String? {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return nil }
        // `URLError.Code` rather than the `NSURLError…` constants: swift-corelibs-foundation gives
        // `NSURLErrorSecureConnectionFailed` the value of `.serverCertificateHasBadDate`.
        switch URLError.Code(rawValue: nsError.code) {
        case .timedOut:
            return "The server took too long to respond."
        case .cannotConnectToHost:
            return "Could not connect to the server."
        case .networkConnectionLost:
            return "The connection to the server was lost."
        case .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return "There is no Internet connection."
        case .cannotFindHost, .dnsLookupFailed:
            return "The server could not be found."
        case .cancelled:
            return "The request was cancelled."
        case .badURL, .unsupportedURL:
            return "The address of this request is not valid."
        case .httpTooManyRedirects:
            return "The server redirected this request too many times."
        case .redirectToNonExistentLocation:
            return "The server redirected this request to an address that does not exist."
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource:
            return "The server's response could not be read."
        case .dataLengthExceedsMaximum:
            return "The server's response was too large."
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired,
            .appTransportSecurityRequiresSecureConnection:
            return "A secure connection to the server could not be made."
        case .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid:
            return "The server's certificate is not valid."
        case .userAuthenticationRequired, .userCancelledAuthentication:
            return "The server asked for credentials that were not given."
        default:
            return generalMessage
        }
    }
}
