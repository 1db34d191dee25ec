import Foundation
import Repose
import ReposeTesting
import Testing

@testable import ReposeTestSupport

@MainActor
@Suite("The response size limit with the stub provider", .checksLifetimes)
struct ResponseSizeLimitStubTests {
    let network = StubNetworkingProvider()
    let service: Service

    init() {
        service = Service(baseURL: "https://api.example.com", options: .init(networking: network))
    }

    @Test("a stubbed body over the configured limit fails the load with ResponseTooLarge; one at the limit loads")
    func stubHonoursTheLimit() async throws {
        service.configure { $0.maximumResponseSize = 10 }
        network.stub(.get, "https://api.example.com/big", data: Data(count: 11))
        network.stub(.get, "https://api.example.com/fits", data: Data(count: 10))

        let big = service.resource("/big")
        let error = try #require(await big.load().response.error)
        #expect((error.cause as? RequestError.Cause.ResponseTooLarge)?.maximumSize == 10)
        #expect(error.userMessage == "The server's response was too large.")
        #expect(big.latestError != nil)

        let fits = service.resource("/fits")
        #expect(await fits.load().response.error == nil)
        #expect((fits.latestData?.content as? Data)?.count == 10)
    }
}
