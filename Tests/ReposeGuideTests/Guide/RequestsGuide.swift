// The Swift blocks of Docs/Requests.md, verbatim: GuideSnippetTests checks that every block appears here.
import Foundation
import Repose

@testable import ReposeTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The page prints what it shows; here `print` records it instead, for RequestsGuideTests to check.
@MainActor var requestsGuidePrinted: [String] = []

@MainActor
private func print(_ items: Any...) {
    requestsGuidePrinted.append(items.map { "\($0)" }.joined(separator: " "))
}

/// Stands in for the page's keychain, which unlocks a secret with the user's biometrics.
enum Keychain {
    static func unlock(_ completion: @escaping @Sendable (String) -> Void) { completion("secret") }

    static func cancelUnlock() {}
}

/// Stands in for the page's HTTP client of another library, which hands over whole responses.
struct OtherHTTPClient {
    struct Call: NetworkingTask {
        func cancel() {}
    }

    func send(
        _ request: URLRequest, completion: @escaping @Sendable (Result<NetworkResponse, any Error>) -> Void
    ) -> any NetworkingTask {
        DispatchQueue.global().async { completion(.success(NetworkResponse(statusCode: 204))) }
        return Call()
    }
}

let client = OtherHTTPClient()

struct MyProvider: NetworkingProvider {
    func startTransfer(_ request: URLRequest, into sink: any ResponseSink) -> any NetworkingTask {
        client.send(request) { result in sink.deliver(result) }  // a Result<NetworkResponse, any Error>
    }
}

@MainActor
enum RequestsGuide {
    static func show(_ message: String) {}

    static func loadOrRequest(_ profile: Resource) {
        profile.loadIfNeeded()  // only if the data is stale and no load is running
        profile.load()  // always
    }

    static func updates(_ profile: Resource) {
        profile.request(.put, json: ["name": "Ada"])
            .onSuccess { _ in profile.load() }  // refresh after the update

        profile.request(.patch, json: ["name": "Ada"])
            .onSuccess { _ in
                var updated = profile.jsonDict  // or patch the local copy yourself
                updated["name"] = "Ada"
                profile.overrideLocalContent(with: updated)
            }
    }

    static func loadUsing(_ profile: Resource, newProfile: [String: Any]) {
        profile.load(using: profile.request(.put, json: newProfile))
    }

    static func hooks(_ resource: Resource) {
        resource.request(.delete)
            .onSuccess { _ in resource.wipe() }
            .onFailure { error in show(error.userMessage) }
    }

    static func asyncAwait(_ profile: Resource) async throws -> [String: Any] {
        switch await profile.load().response {
        case .success(let entity): print(entity.text)
        case .failure(let error): print(error.userMessage)
        }

        let user: [String: Any] = try await profile.request(.get).content()
        return user
    }

    static func unencodable(_ resource: Resource) {
        resource.request(.post, text: "☃", encoding: .ascii)
            .onFailure { error in
                print(error.cause is RequestError.Cause.UnencodableText)  // true; nothing was sent
            }
    }

    static func oneOffHeaders(_ avatar: Resource, user: Resource, note: Resource, png: Data, etag: String) {
        avatar.request(.put, data: png, contentType: "image/png", headers: ["X-Visibility": "public"])
        user.load(using: user.request(.get, headers: ["X-Debug": "1"]))
        note.request(.patch, json: ["text": "Milk"], showing: .merge(["text": "Milk"]), headers: ["If-Match": etag])
    }

    static func requestMutation(_ avatar: Resource, png: Data) {
        avatar.request(.put, data: png, contentType: "image/png") { $0.timeoutInterval = 300 }
    }

    static func repeating(_ resource: Resource, payload: [String: Any]) {
        let original = resource.request(.post, json: payload)
        // … later, after the user taps "Retry":
        original.repeated().start()
    }

    static func defaultNetwork() -> Service {
        let api = Service(baseURL: "https://api.example.com")  // a URLSessionProvider() of its own
        return api
    }

    static func cookies() -> Service {
        let provider = URLSessionProvider(keepsCookies: true)
        let web = Service(baseURL: "https://example.com", options: .init(networking: provider))

        func logOut() {
            provider.removeAllCookies()
            web.wipeResources()
        }
        logOut()
        return web
    }

    static func limits() -> Service {
        let api = Service(
            baseURL: "https://api.example.com", options: .init(limits: RequestLimits(total: 8, perHost: 4)))
        return api
    }

    /// The page's list screen: rows with a detail each, and the cells that show them.
    struct Row {
        let detailPath: String
    }

    final class Cell {
        var updates = 0
        func update() { updates += 1 }
    }

    static func prefetching(_ api: Service) -> (prefetch: ([Row]) -> Void, show: (Row, Cell) -> Void) {
        func prefetch(_ rows: [Row]) {
            for row in rows { api.resource(row.detailPath).loadIfNeeded() }  // unobserved: waits behind what is shown
        }

        func show(_ row: Row, in cell: Cell) {
            api.resource(row.detailPath).addObserver(owner: cell) { _, _ in cell.update() }  // up the queue if waiting
        }
        return (prefetch, { show($0, in: $1) })
    }

    static func priorities(_ api: Service, post: Resource, reply: [String: Any]) {
        api.configure("/thumbnails/**") { $0.priority = .low }
        post.request(.post, json: reply, options: RequestOptions(priority: .high))
    }

    static func responseSize(_ service: Service) {
        service.configure("/exports/**") { $0.maximumResponseSize = 512 * 1024 * 1024 }
    }

    static func customRequest(_ vault: Resource) {
        @MainActor
        final class BiometricUnlock: RequestDelegate {
            private var handler: RequestCompletionHandler?

            func startUnderlyingOperation(passingResponseTo completionHandler: RequestCompletionHandler) {
                handler = completionHandler
                Keychain.unlock { secret in
                    Task { @MainActor in
                        completionHandler.broadcastResponse(
                            ResponseInfo(response: .success(Entity(content: secret, contentType: "text/plain"))))
                    }
                }
            }

            func cancelUnderlyingOperation() { Keychain.cancelUnlock() }
            func repeated() -> any RequestDelegate { BiometricUnlock() }
            var requestDescription: String { "biometric unlock" }
        }

        let unlock = vault.prepareRequest(using: BiometricUnlock())  // not started yet
        vault.load(using: unlock.start())
    }
}
