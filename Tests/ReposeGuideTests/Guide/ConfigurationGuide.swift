// The Swift blocks of Docs/Configuration.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
enum ConfigurationGuide {
    /// The page's sign-in state: the header that requests carry.
    final class Session {
        var authorizationHeader = ""
        var csrfToken = ""
    }

    /// The page's clock, which dates requests.
    struct Clock {
        var nowAsHTTPDate: String { "Tue, 24 Nov 2026 12:00:00 GMT" }
    }

    /// The page's logger.
    final class Log {
        private(set) var warnings: [String] = []

        func warning(_ message: String) { warnings.append(message) }
    }

    static func choosingResources() -> Service {
        let api = Service(baseURL: "https://api.example.com/v1")

        api.configure { $0.expirationTime = 60 }  // every resource
        api.configure("/users/*") { $0.expirationTime = 300 }  // one segment under /users
        api.configure(api.resource("/status")) { $0.retryTime = 0 }  // exactly one URL
        return api
    }

    static func regularExpressions(_ api: Service) throws {
        api.configure(try NSRegularExpression(pattern: "/v[0-9]+/admin/", options: .caseInsensitive)) {
            $0.headers["X-Admin"] = "1"
        }
        api.configure(/[?&]preview=1/) { $0.expirationTime = 0 }
    }

    static func predicate(_ api: Service) {
        api.configure(whenURLMatches: { $0.pathExtension == "png" }) { $0.expirationTime = 86_400 }
    }

    static func wiping(_ api: Service) {
        api.wipeResources(matching: "/me/**")
        api.wipeResources(withURLsMatching: { $0.host == "uploads.example.com" })
        api.wipeResources()  // everything, every cache's entries included: log-out
    }

    static func perMethod(_ api: Service, session: Session) {
        api.configure(requestMethods: [.post, .put, .patch]) { $0.headers["X-CSRF-Token"] = session.csrfToken }
    }

    static func order(_ api: Service) {
        api.configure { $0.expirationTime = 30 }
        api.configure("/live/**") { $0.expirationTime = 1 }
    }

    static func laziness(_ api: Service, session: Session, newToken: String) {
        api.configure { $0.headers["Authorization"] = session.authorizationHeader }

        session.authorizationHeader = "Bearer \(newToken)"
        api.invalidateConfiguration()  // without this, requests keep the old header
    }

    static func mutator(_ api: Service, clock: Clock) {
        api.configure {
            $0.mutateRequests { request in
                request.setValue(clock.nowAsHTTPDate, forHTTPHeaderField: "X-Sent-At")
            }
        }
    }

    static func decorator(_ api: Service, log: Log) {
        api.configure {
            $0.decorateRequests { resource, request in
                request.onFailure { error in log.warning("\(resource.url): \(error.userMessage)") }
            }
        }
    }
}
