// The Swift blocks of Docs/Signals.md, verbatim, with the view code they assume: GuideSnippetTests checks that
// every block appears here, so that the page cannot show code that does not compile.
import Foundation
import Repose

@testable import ReposeTestSupport

/// The page's code prints what it shows, as an app would; in the test run that would only be noise, so in this
/// file `print` writes nothing. The tests check the state the code leaves instead.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

/// Stands in for a UI label.
final class GuideLabel {
    var text: String?
}

/// Stands in for a spinner view.
final class GuideSpinner {
    var isHidden = true
}

/// Stands in for a list view.
final class GuideList {
    var items: [Any] = []
    var alpha = 1.0
}

@MainActor
final class SignalsGuideScreen {
    struct User: Decodable, Sendable {
        let name: String
    }

    struct Profile: Decodable, Sendable {
        let name: String
    }

    let api: Service
    let nameLabel = GuideLabel()
    let errorLabel = GuideLabel()
    let spinner = GuideSpinner()
    let list = GuideList()
    var query: MutableState<String>?
    var subscription: Subscription?
    var group = ResourceGroup()
    var rendered: [ResourceState<Any>] = []
    var shown: [String] = []

    init(api: Service) {
        self.api = api
    }

    func render(_ state: ResourceState<Any>) { rendered.append(state) }
    func showSpinner() { shown.append("spinner") }
    func showBanner(_ message: String, retry: () -> Void) { shown.append("banner: \(message)") }
    func showContent(partial: Bool = false) { shown.append(partial ? "partial content" : "content") }
    func showPlaceholder() { shown.append("placeholder") }

    func oneResource() -> State<ResourceState<User>> {
        let user = api.resource("/users/ada")

        // Replays the current snapshot at once, then one snapshot per resource event. The closure receives its owner (the
        // screen) instead of capturing it, so the screen is free to go, and the observation ends with it.
        user.state.observe(owner: self) { screen, state in
            screen.nameLabel.text = state.jsonDict["name"] as? String
            screen.spinner.isHidden = !state.isLoading
            screen.errorLabel.text = state.latestError?.userMessage
        }

        // Typed content: content of another type reads as nil, never a crash.
        let typed: State<ResourceState<User>> = user.state(as: User.self)

        // The raw events, if you prefer them (no initial observerAdded).
        user.events.observe(owner: self) { event in print(event) }
        return typed
    }

    func autoloading(user: Resource) {
        subscription = user.autoloadingState().observe { [weak self] state in self?.render(state) }
    }

    func severalResources(user: Resource, repositories: Resource) -> State<String> {
        let header = user.state.combineLatest(repositories.state).map { user, repos in
            "\(user.jsonDict["name"] as? String ?? "…") — \(repos.jsonArray.count) repositories"
        }
        return header
    }

    func group(user: Resource, repositories: Resource) {
        group = ResourceGroup([user, repositories])  // the screen keeps it; add(_:) and remove(_:) any time
        group.state.observe(owner: self) { screen, status in
            switch status.display {  // by priority: loading > error > all data > any data
            case .loading: screen.showSpinner()
            case .error(let error): screen.showBanner(error.userMessage, retry: screen.group.retryFailed)
            case .allData: screen.showContent()
            case .anyData: screen.showContent(partial: true)  // some members have data, not all
            case .empty: screen.showPlaceholder()
            }
        }
        group.loadIfNeeded()
    }

    func dependent(user: Resource) -> State<ResourceState<Any>> {
        let api = self.api
        let repositories = user.state.flatMapLatest { state -> State<ResourceState<Any>> in
            guard let href = state.jsonDict["repos_url"] as? String else { return .constant(.empty) }
            return api.resource(absoluteURL: href).autoloadingState(cancelDelay: 0)
        }
        return repositories
    }

    func search(scheduler: some Scheduler) -> State<ResourceState<Any>> {
        let api = self.api
        // The guide's block, on the scheduler a test gives instead of MainScheduler().
        func MainScheduler() -> some Scheduler { scheduler }
        let query = MutableState("")
        let results = query.state.signal
            .debounce(for: .milliseconds(300), scheduler: MainScheduler())
            .hold(initial: "")
            .flatMapLatestKeepingPrevious(besideErrors: true) { text in
                text.isEmpty ? nil : api.resource("/search").withParam("q", text).autoloadingState()
            }

        query.value = "s"
        query.value = "si"
        query.value = "sie"  // typed within 300 ms: one request, for "sie"
        self.query = query
        return results
    }

    /// Shows the search results, dimmed while they are the previous query's.
    func showResults(_ results: State<ResourceState<Any>>) {
        results.observe(owner: self) { screen, state in
            screen.list.items = state.jsonArray
            screen.list.alpha = state.isPrevious ? 0.5 : 1
            screen.spinner.isHidden = !state.isLoading
            screen.errorLabel.text = state.latestError?.userMessage  // beside the previous results, if any
        }
    }

    /// Shows the messages of a stream, and returns its continuation so that a test can feed it.
    func asyncSequence() -> AsyncStream<String>.Continuation {
        let (messages, continuation) = AsyncStream<String>.makeStream()
        Signal(messages).observe(owner: self) { screen, message in screen.nameLabel.text = message }
        continuation.yield("Connected")
        return continuation
    }

    func debugging(query: MutableState<String>) -> State<String> {
        ReposeLog.enabled.insert(.signals)
        let traced = query.state.print("query")  // [Repose:signals] query: value "swift"
        return traced
    }

    func asyncAwait(user: Resource) async throws {
        let response = await user.load().response  // Result<Entity<Any>, RequestError>
        let entity = try await user.load().entity  // throws RequestError
        let profile = try await user.load().content(as: Profile.self)

        for await state in user.state.values {  // ends when the task is cancelled
            render(state)
        }
        _ = (response, entity, profile)
    }
}

@MainActor
final class SignUpModel {
    let email = MutableState("")
    let password = MutableState("")
    private let taps = SignalSource<Void>()
    private(set) var submitted: [Request] = []

    init(api: Service) {
        let form = email.state.combineLatest(password.state)
        taps.signal
            .withLatestFrom(form)
            .map { _, form in form }
            .filter { email, password in email.contains("@") && password.count >= 8 }
            .observe(owner: self) { model, form in
                let (email, password) = form
                let request = api.resource("/signups").request(.post, json: ["email": email, "password": password])
                model.submitted.append(request)
            }
    }

    func submitTapped() { taps.send(()) }
}

#if canImport(SwiftUI)
import SwiftUI

struct SearchView: View {
    @State private var query: ObservableMutableState<String>
    @State private var results: ObservableState<ResourceState<Any>>

    init(query: MutableState<String>, results: State<ResourceState<Any>>) {
        _query = State(initialValue: ObservableMutableState(query))
        _results = State(initialValue: ObservableState(results))
    }

    var body: some View {
        VStack {
            TextField("Search", text: $query.value)
            Text("\(results.value.jsonArray.count) results")
                .opacity(results.value.isPrevious ? 0.5 : 1)
        }
    }
}

enum API {
    @MainActor static let profile = Service(baseURL: "https://api.example.com").resource("/profile")
}

struct ProfileView: View {
    @State private var profile = ObservableResource(API.profile, as: [String: Any].self)

    var body: some View {
        Text(profile.state.content?["name"] as? String ?? "…")
            .task { profile.loadIfNeeded() }
    }
}
#endif
