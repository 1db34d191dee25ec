import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("The inspector page's code", .checksLifetimes)
struct InspectorGuideTests {
    let harness = Harness()
    var service: Service { harness.service }

    @Test("the inspector page's code finds the failing resources and the most observed one")
    func guideSnippet() async {
        let observed = service.resource("/observed")
        observed.addObserver(owner: harness) { _, _ in }
        let failing = service.resource("/failing")
        await harness.answer(failing.load(), status: 500)
        let (failingURLs, busiest) = inspectorGuide(service)
        #expect(failingURLs == ["https://zingle.frotz/v1/failing"])
        #expect(busiest?.url == "https://zingle.frotz/v1/observed")
        observed.removeObservers(ownedBy: harness)
    }
}
