// The Swift block of Docs/Observers.md, verbatim: GuideSnippetTests checks that it appears here.
import Repose

@testable import ReposeTestSupport

@MainActor
enum ObserversGuide {
    /// The page's view controller uses UIKit's names; here they stand for the guide's test doubles.
    typealias UILabel = GuideLabel
    typealias UIActivityIndicatorView = GuideSpinner

    @MainActor
    enum API {
        static var profile: Resource { service.resource("/profile") }
        static let service = Service(baseURL: "https://api.example.com/v1")
    }

    static func show() -> AnyObject {
        let viewController = ProfileViewController()

        final class ProfileViewController: ResourceObserver {
            let nameLabel = UILabel()
            let errorLabel = UILabel()
            let spinner = UIActivityIndicatorView()

            func resourceChanged(_ resource: Resource, event: ResourceEvent) {
                nameLabel.text = resource.jsonDict["name"] as? String
                errorLabel.text = resource.latestError?.userMessage
                spinner.isHidden = !resource.isLoading
            }
        }

        API.profile.addObserver(viewController)  // the observer receives .observerAdded at once
        return viewController
    }
}
