import Foundation
import Repose

/// The demo's script: each step prints what it does and what happened.
@MainActor
struct Demo {
    let service: Service
    let login: String
    let fixture: FixtureAPI?

    init(baseURL: String, networking: any NetworkingProvider, login: String, fixture: FixtureAPI?) {
        service = Service(baseURL: baseURL, options: .init(networking: networking))
        self.login = login
        self.fixture = fixture
        print("Repose demo on \(service.baseURL?.absoluteString ?? baseURL)\n")
    }

    func run() async {
        // 1. A view model derived from resource states: the user, their repositories, one status line.
        step("A view model combines a user and their repositories into one status line")
        let model = ProfileViewModel(service: service, login: login)
        model.start { print("    status: \($0)") }
        await settle(model.user)
        if model.user.latestError == nil {
            await settle(model.repositories)
        }

        // 2. loadIfNeeded() is free to call: fresh data means no request.
        step("loadIfNeeded() three times while the data is fresh")
        let before = fixture?.requestCount
        let answers = (1...3).map { _ in model.user.loadIfNeeded() == nil ? "nil" : "a request" }
        print("    returned \(answers.joined(separator: ", "))", terminator: "")
        print(before.map { "; requests sent: \((fixture?.requestCount ?? 0) - $0)" } ?? "")

        // 3. Revalidation: the ETag goes back as If-None-Match, and a 304 keeps the data.
        step("invalidate() then loadIfNeeded(): the server confirms the data is unchanged")
        model.user.addObserver(owner: fixture ?? service) { _, event in print("    event: \(event)") }
        model.user.invalidate()
        if let request = model.user.loadIfNeeded() {
            let info = await request.responseInfo
            print("    new data: \(info.isNew)")
        }
        model.user.removeObservers(ownedBy: fixture ?? service)

        // 4. Errors are values with a message fit for display.
        step("A user that does not exist")
        let missing = service.resource("/users/nobody-at-all")
        if case .failure(let error) = await missing.load().response {
            print("    \(error.userMessage) (HTTP \(error.httpStatusCode.map(String.init) ?? "-"))")
            print("    server said: \(error.jsonDict["message"] as? String ?? error.text)")
        }

        // 5. A local override updates every observer without touching the network.
        step("An optimistic local update")
        var profile = model.user.jsonDict
        profile["name"] = "\(profile["name"] as? String ?? login) (edited)"
        model.user.overrideLocalContent(with: profile)

        print("\nDone\(fixture.map { ": \($0.requestCount) requests reached the fixture API" } ?? "").")
    }

    private func step(_ title: String) {
        print("\n▶ \(title)")
    }

    /// Waits for a resource's loads in flight to finish.
    private func settle(_ resource: Resource) async {
        while let request = resource.loadRequests.first {
            _ = await request.responseInfo
        }
    }

    /// Waits until a derived state has settled: loaded or failed, and nothing in flight.
    private func settle(_ state: State<ResourceState<Any>>) async {
        for await value in state.values {
            if !value.isLoading, value.latestData != nil || value.latestError != nil { break }
        }
    }
}
