import Foundation

/// Display messages for transport failures whose own description is missing or unhelpful.
enum NetworkErrorMessages {
    static func message(for error: any Error) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return "The network request failed." }
        switch nsError.code {
        case NSURLErrorTimedOut: return "The server took too long to respond."
        case NSURLErrorCannotConnectToHost: return "Could not connect to the server."
        case NSURLErrorNetworkConnectionLost: return "The connection to the server was lost."
        case NSURLErrorNotConnectedToInternet: return "There is no Internet connection."
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "The server could not be found."
        case NSURLErrorCancelled: return "The request was cancelled."
        default: return "The network request failed."
        }
    }
}
