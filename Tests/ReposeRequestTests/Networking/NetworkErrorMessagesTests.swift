import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Messages for transport errors")
struct NetworkErrorMessagesTests {
    @Test(
        "A13 a URLError becomes Repose's own message, whatever Foundation's description says",
        arguments: [
            (URLError.Code.badURL, "The address of this request is not valid."),
            (.unsupportedURL, "The address of this request is not valid."),
            (.timedOut, "The server took too long to respond."),
            (.cannotConnectToHost, "Could not connect to the server."),
            (.networkConnectionLost, "The connection to the server was lost."),
            (.notConnectedToInternet, "There is no Internet connection."),
            (.cannotFindHost, "The server could not be found."),
            (.dnsLookupFailed, "The server could not be found."),
            (.httpTooManyRedirects, "The server redirected this request too many times."),
            (.badServerResponse, "The server's response could not be read."),
            (.cannotParseResponse, "The server's response could not be read."),
            (.dataLengthExceedsMaximum, "The server's response was too large."),
            (.secureConnectionFailed, "A secure connection to the server could not be made."),
            (.serverCertificateUntrusted, "The server's certificate is not valid."),
            (.cancelled, "The request was cancelled."),
            (.unknown, "The network request failed."),
        ])
    func urlErrorMessages(code: URLError.Code, message: String) {
        // Foundation's descriptions range from fine to misleading ("Out of memory" for a large header on Linux).
        let foundation = NSError(
            domain: NSURLErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: "Out of memory"])
        for error in [URLError(code) as any Error, foundation] {
            let wrapped = NetworkErrorMessages.requestError(for: error, timestamp: 7)
            #expect(wrapped.userMessage == message)
            // Compared as NSError: swift-corelibs-foundation does not bridge an NSError to URLError with `as?`.
            #expect(wrapped.cause.map { ($0 as NSError).code } == code.rawValue)
            #expect(wrapped.cause.map { ($0 as NSError).domain } == NSURLErrorDomain)
            #expect(wrapped.timestamp == 7)
        }
    }

    @Test("an error from another domain keeps its own description, or gets a general message without one")
    func otherErrors() {
        struct Described: LocalizedError {
            var errorDescription: String? { "The VPN is down." }
        }
        struct Undescribed: Error {}
        #expect(NetworkErrorMessages.requestError(for: Described(), timestamp: 0).userMessage == "The VPN is down.")
        #expect(
            NetworkErrorMessages.requestError(for: Undescribed(), timestamp: 0).userMessage
                == "The network request failed.")
        let tooLarge = RequestError.Cause.ResponseTooLarge(maximumSize: 10)
        #expect(
            NetworkErrorMessages.requestError(for: tooLarge, timestamp: 0).userMessage
                == "The server's response was too large.")
    }

    @Test("a RequestError from a provider passes through unchanged")
    func requestErrorPassesThrough() {
        let original = RequestError(userMessage: "Offline mode.", cause: nil, timestamp: 3)
        let passed = NetworkErrorMessages.requestError(for: original, timestamp: 9)
        #expect(passed.userMessage == "Offline mode.")
        #expect(passed.timestamp == 3)
    }
}
