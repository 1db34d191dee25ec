import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Load over real HTTP", .checksLifetimes)
final class LoadIntegrationTests {
    let fixture: IntegrationFixture

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("A4 B9 1,000 resources loading at once all end with their own data, and nothing is left loading")
    func thousandAtOnce() async throws {
        let resources = (0..<1_000).map { fixture.service.resource("/echo").withParam("n", String($0)) }
        let loads = resources.map { $0.load() }
        #expect(resources.allSatisfy { $0.isLoading })
        for load in loads {
            try #require(await fixture.completion(of: load, within: .seconds(60)) != nil)
        }
        var wrong: [String] = []
        for (index, resource) in resources.enumerated() {
            let echoed = EchoedRequest(resource.latestData)
            if echoed?.query != "n=\(index)" || resource.latestError != nil || resource.isLoading {
                let error = String(describing: resource.latestError)
                wrong.append("\(index): \(String(describing: echoed?.query)) \(error)")
            }
        }
        #expect(wrong.isEmpty, "resources in the wrong state: \(wrong.prefix(5))")
    }
}
