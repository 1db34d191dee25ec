// The Swift blocks of Docs/TypedContent.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

@MainActor
final class TypedContentGuideScreen {
    struct User: Codable, Sendable, Equatable {
        let name: String
    }

    let api: Service
    var title = ""
    var shown: [String] = []
    var read: (model: User?, name: String, etag: String?)?
    var states: [State<ResourceState<User>>] = []
    var snapshot: ResourceState<User>?

    init(api: Service) {
        self.api = api
    }

    func show(_ user: User) { shown.append("user \(user.name)") }
    func showBanner(_ message: String) { shown.append("banner \(message)") }

    func readContent() -> Resource {
        api.configureTransformer("/users/*", decoding: User.self)
        let user = api.resource("/users/ada")

        let model: User? = user.typedContent()  // nil until loaded, or if it is not a User
        let name = user.typedContent(ifNone: User(name: "…")).name  // the default is built only when needed
        let etag = user.latestData?.header(forKey: "etag")  // header names in any letter case
        read = (model, name, etag)
        return user
    }

    func readState(_ user: Resource) {
        let profile: State<ResourceState<User>> = user.state(as: User.self)
        profile.observe(owner: self) { screen, state in
            screen.title = state.content?.name ?? (state.isLoading ? "Loading…" : "")
        }

        let loadingProfile = user.autoloadingState(as: User.self)  // observing it loads the user if needed
        let snapshot: ResourceState<User> = user.currentState.typed(as: User.self)
        let nothingYet: State<ResourceState<User>> = .constant(.empty)
        states = [profile, loadingProfile, nothingYet]
        self.snapshot = snapshot
    }

    func refresh(_ user: Resource) -> Task<Void, Never> {
        Task {
            do throws(RequestError) {
                let fresh = try await user.load().content(as: User.self)
                show(fresh)
            } catch {
                showBanner(error.userMessage)  // error is a RequestError
            }
        }
    }
}
