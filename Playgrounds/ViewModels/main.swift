// ViewModels: a view model that combines a user and their repositories into one loading/error status line,
// built from resource states. It runs on the stub provider from ReposeTesting, so there is no network.
import Foundation
import Observation
import Repose
import ReposeTesting

@MainActor
final class UserProfileModel {
    let user: Resource
    let status: State<String>
    private var subscriptions: [Subscription] = []

    init(service: Service, login: String) {
        user = service.resource("/users").child(segment: login)

        // The repositories' URL is a link in the user's JSON: follow it, and switch when it changes.
        let repositories = user.state.flatMapLatest { state -> State<ResourceState<Any>> in
            guard let href = state.jsonDict["repos_url"] as? String else { return .constant(.empty) }
            return service.resource(absoluteURL: href).autoloadingState()
        }

        // One status line from both states: loading first, then errors, then whatever data there is.
        status = user.state.combineLatest(repositories).map { user, repositories in
            if user.isLoading || repositories.isLoading { return "loading…" }
            if let error = user.latestError ?? repositories.latestError {
                return "error: \(error.userMessage)"
            }
            let name = user.jsonDict["name"] as? String ?? "?"
            let repoNames = repositories.jsonArray.compactMap { ($0 as? [String: Any])?["name"] as? String }
            return "\(name): \(repoNames.joined(separator: ", "))"
        }.removeDuplicates()
    }

    func bind(_ render: @escaping (String) -> Void) {
        subscriptions.append(status.observe(render))
    }
}

@MainActor
func tour() async {
    let network = StubNetworkingProvider()
    let base = "https://api.example.com"
    network.stub(.get, "\(base)/users/ada", json: ["name": "Ada", "repos_url": "\(base)/users/ada/repos"])
    network.stub(.get, "\(base)/users/ada/repos", json: [["name": "engine"], ["name": "notes"]])
    network.stub(.get, "\(base)/users/nobody", status: 404, json: ["message": "no such user"])
    let service = Service(baseURL: base, options: .init(networking: network))

    // Step 1: bind the view model and load. The status line follows the user, then the repositories.
    print("Step 1: a user and their repositories")
    let ada = UserProfileModel(service: service, login: "ada")
    ada.bind { print("  ada  → \($0)") }
    _ = await ada.user.load().response
    _ = await network.idle()

    // Step 2: a user that does not exist shows the error line.
    print("Step 2: a missing user")
    let nobody = UserProfileModel(service: service, login: "nobody")
    nobody.bind { print("  nobody → \($0)") }
    _ = await nobody.user.load().response

    // Step 3: a local edit flows through every derived state at once.
    print("Step 3: an optimistic rename")
    var edited = ada.user.jsonDict
    edited["name"] = "Ada Lovelace"
    ada.user.overrideLocalContent(with: edited)

    // Step 4: a screen that follows a selected user keeps the previous user's data on screen, marked as previous,
    // while the next one loads: no empty flash between two profiles. Kept beside errors, a user that fails to load
    // leaves the last profile on screen under the error, instead of an empty page.
    print("Step 4: switching users, the previous profile stays until the next one arrives, even past an error")
    network.stub(.get, "\(base)/users/grace", json: ["name": "Grace"])
    let selected = MutableState("ada")
    // A debug tap: the `signals` log category shows what the chain sees, here each login selected.
    ReposeLog.enabled = .signals
    let profile = selected.state.print("selected").flatMapLatestKeepingPrevious(besideErrors: true) { login in
        service.resource("/users").child(segment: login).autoloadingState()
    }
    let subscription = profile.observe { state in
        let name = state.jsonDict["name"] as? String ?? "-"
        let marks =
            (state.isPrevious ? " (previous, dimmed)" : "") + (state.isLoading ? ", loading…" : "")
            + (state.latestError.map { ", error: \($0.userMessage)" } ?? "")
        print("  profile → \(name)\(marks)")
    }
    selected.value = "grace"
    _ = await service.resource("/users/grace").loadRequests.first?.response
    selected.value = "nobody"
    _ = await service.resource("/users/nobody").loadRequests.first?.response
    subscription.cancel()
    ReposeLog.enabled = []

    // Step 5: a form whose button sends the fields as they are when tapped (withLatestFrom), and only once: first()
    // ends the observation by itself after the first valid submission.
    print("Step 5: a rename form")
    network.stub(.patch, "\(base)/users/ada", json: ["name": "Countess Lovelace"])
    let name = MutableState("")
    let saveTaps = SignalSource<Void>()
    saveTaps.signal.withLatestFrom(name.state)
        .map { _, name in name }
        .filter { !$0.isEmpty }
        .first()
        .observe(owner: ada) { model, newName in
            print("  saving \"\(newName)\"")
            model.user.request(.patch, json: ["name": newName])
        }
    saveTaps.send(())  // an empty name: nothing is sent
    name.value = "Countess Lovelace"
    saveTaps.send(())
    saveTaps.send(())  // after first(), the observation has ended: nothing more is sent
    _ = await network.idle()

    // Step 6: the same states, read the way SwiftUI reads them: as @Observable objects. A text field would bind to
    // `draft.value`; here `withObservationTracking` shows that each write is observed.
    print("Step 6: states as Observation objects")
    let draft = ObservableMutableState(name)
    let status = ObservableState(ada.status)
    withObservationTracking {
        _ = draft.value
    } onChange: {
        print("  (a view showing the draft would redraw)")
    }
    draft.value = "Ada"
    print("  draft → \(name.value); status → \(status.value)")

    print("Requests sent: \(network.requests.map { "\($0.httpMethod) \($0.url)" })")
}

await tour()
