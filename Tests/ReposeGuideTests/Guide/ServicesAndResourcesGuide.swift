// The Swift blocks of Docs/ServicesAndResources.md, verbatim: GuideSnippetTests checks that every block appears
// here, and ServicesAndResourcesGuideTests runs them.
import Repose

@testable import ReposeTestSupport

/// The page prints what it shows; here `print` records it instead, for the tests to check.
@MainActor var servicesGuidePrinted: [String] = []

@MainActor
private func print(_ items: Any...) {
    servicesGuidePrinted.append(items.map { "\($0)" }.joined(separator: " "))
}

enum ServicesAndResourcesGuide {
    @MainActor
    enum API {
        static let service = Service(baseURL: "https://api.example.com/v1")

        static var profile: Resource { service.resource("/profile") }
        static func user(_ id: Int) -> Resource { service.resource("/users").child(String(id)) }
    }

    @MainActor
    static func oneResourcePerURL(_ service: Service) -> [Resource] {
        let a = service.resource("/users/42")
        let b = service.resource("/users").child("42")
        let c = service.resource("/groups/7").relative("../users/42")
        // a === b && b === c
        return [a, b, c]
    }

    @MainActor
    static func dotSegments(_ service: Service) -> Resource {
        let admin = service.resource("/files").child("../admin")  // invalid: its loads fail at once with InvalidURL
        return admin
    }

    @MainActor
    static func userInput(_ service: Service, userID: String) {
        let users = service.resource("/users")
        print(users.child(segment: userID).url)  // …/users/ada
        print(users.child(segment: "../admin").url)  // …/users/..%2Fadmin: one segment, named "../admin"
        print(users.child(segment: "a b?c#d").url)  // …/users/a%20b%3Fc%23d
    }
}
