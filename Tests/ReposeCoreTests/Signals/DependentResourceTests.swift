import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Dependent resources and the debounced search recipe", .checksLifetimes)
struct DependentResourceTests {
    let harness = Harness()

    @Test("S12 flatMapLatest follows the resource named in another resource's content, dropping the old one at once")
    func dependentResource() {
        let service = harness.service
        let user = service.resource("/users/ada")
        let repositories = user.state.flatMapLatest { state -> State<ResourceState<Any>> in
            guard let href = state.jsonDict["repos_url"] as? String else { return .constant(.empty) }
            return service.resource(absoluteURL: href).autoloadingState(cancelDelay: 0)
        }
        var urls: [String] = []
        let subscription = repositories.observe { _ in }
        user.overrideLocalContent(with: ["repos_url": "https://zingle.frotz/v1/users/ada/repos"])
        user.overrideLocalContent(with: ["repos_url": "https://zingle.frotz/v1/users/ada/starred"])
        urls = harness.network.sent.compactMap { URL(string: $0.url)?.path }
        #expect(urls == ["/v1/users/ada/repos", "/v1/users/ada/starred"])
        harness.scheduler.advance()
        let first = service.resource("/users/ada/repos")
        #expect(!first.isLoading)  // nothing else observed it, so its load was cancelled
        #expect(!first.isObserved)
        #expect(service.resource("/users/ada/starred").isLoading)
        subscription.cancel()
    }

    @Test("debounced search: typing s, si, sie within the interval makes one request")
    func debouncedSearch() async {
        let service = harness.service
        let query = MutableState("")
        let results = query.state.signal
            .debounce(for: .milliseconds(300), scheduler: harness.scheduler)
            .hold(initial: "")
            .flatMapLatest { text -> State<ResourceState<Any>> in
                text.isEmpty ? .constant(.empty) : service.resource("/search").withParam("q", text).autoloadingState()
            }
        var latest: ResourceState<Any>?
        let subscription = results.observe { latest = $0 }
        query.value = "s"
        harness.scheduler.advance(by: .milliseconds(100))
        query.value = "si"
        harness.scheduler.advance(by: .milliseconds(100))
        query.value = "sie"
        #expect(harness.network.sent.isEmpty)
        harness.scheduler.advance(by: .milliseconds(300))
        #expect(harness.network.sent.compactMap { URL(string: $0.url)?.query } == ["q=sie"])
        #expect(latest?.isLoading == true)
        let search = service.resource("/search").withParam("q", "sie")
        let inFlight = search.loadRequests.first
        await harness.network.respond(status: 200, headers: ["Content-Type": "text/plain"], body: Data("found".utf8))
        _ = await inFlight?.responseInfo
        #expect(latest?.latestData != nil)
        subscription.cancel()
    }
}
