// The Swift blocks of Docs/MigratingFromSiesta.md, verbatim: GuideSnippetTests checks that every block appears
// here.
import Foundation
import Repose

@testable import ReposeTestSupport

/// The page's code prints what it shows; in the test run that would only be noise.
private func print(_ items: Any...) {}

@MainActor
final class MigrationGuideScreen {
    let api: Service
    var shown: [[String: Any]] = []

    init(api: Service) {
        self.api = api
    }

    func show(_ json: [String: Any]) { shown.append(json) }

    func appear() {
        let profile = api.resource("/profile")
        profile.addObserver(owner: self) { [weak self] resource, _ in
            self?.show(resource.jsonDict)  // as in Siesta: capture the owner weakly
        }
        profile.state.observe(owner: self) { screen, state in
            screen.show(state.jsonDict)  // or the signal form, which hands the closure its owner
        }
        profile.loadIfNeeded()?
            .onSuccess { entity in print(entity.jsonDict) }
            .onFailure { error in print(error.userMessage) }
    }
}
