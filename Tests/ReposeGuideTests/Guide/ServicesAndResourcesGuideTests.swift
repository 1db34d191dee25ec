import Foundation
import Repose
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The examples of the services and resources page", .checksLifetimes)
struct ServicesAndResourcesGuideTests {
    let service = Service(baseURL: "https://api.example.com/v1")

    init() {
        LifetimeCheck.track(service)
    }

    @Test("one URL, however it was reached, is one resource")
    func oneResourcePerURL() {
        let resources = ServicesAndResourcesGuide.oneResourcePerURL(service)
        #expect(resources[0] === resources[1] && resources[1] === resources[2])
    }

    @Test("the page's URLs are the ones a resource shows")
    func urls() {
        let admin = ServicesAndResourcesGuide.dotSegments(service)
        #expect(admin.url.scheme == "repose-invalid-url")
        #expect(admin.load().completedResponse?.response.error?.cause is RequestError.Cause.InvalidURL)
        servicesGuidePrinted = []
        ServicesAndResourcesGuide.userInput(service, userID: "ada")
        #expect(
            servicesGuidePrinted == [
                "https://api.example.com/v1/users/ada", "https://api.example.com/v1/users/..%2Fadmin",
                "https://api.example.com/v1/users/a%20b%3Fc%23d",
            ])
    }

    @Test("the page's API enum hands out the profile and users under its base URL")
    func apiEnum() {
        #expect(ServicesAndResourcesGuide.API.profile.url.absoluteString == "https://api.example.com/v1/profile")
        #expect(ServicesAndResourcesGuide.API.user(42).url.absoluteString == "https://api.example.com/v1/users/42")
    }
}
