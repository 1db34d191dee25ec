// The Swift block of Docs/Security.md, verbatim: GuideSnippetTests checks that it appears here.
import Repose

@testable import ReposeTestSupport

/// The page's app: one service over a provider that keeps cookies.
@MainActor
final class SecurityGuideSession {
    let provider = URLSessionProvider(keepsCookies: true)
    let service: Service

    init() {
        service = Service(baseURL: "https://api.example.com", options: .init(networking: provider))
    }

    func logOut() {
        service.wipeResources()  // memory and disk: every resource, every cache entry, the outbox
        provider.removeAllCookies()  // only if you created the provider with keepsCookies: true
        service.invalidateConfiguration()  // headers computed from the old token are built again
    }
}
