import Foundation
import ReposeSignals
import ReposeTesting
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Service.Options: a service's replaceable parts as one value", .checksLifetimes)
struct ServiceOptionsTests {
    @Test("the networking, scheduler and standard transformers given in options are the ones the service uses")
    func optionsReachTheService() async {
        let network = StubNetworkingProvider()
        network.stub(.get, "https://api.example.com/note", text: "hello")
        let scheduler = TestScheduler(now: .seconds(5_000))
        let service = Service(
            baseURL: "https://api.example.com",
            options: .init(standardTransformers: [], networking: network, scheduler: scheduler))
        LifetimeCheck.track(service)
        let note = service.resource("/note")
        _ = await note.load().response
        #expect(network.requests.map(\.url) == ["https://api.example.com/note"])
        #expect(note.latestData?.timestamp == 5_000)  // stamped by the scheduler given
        #expect(note.latestData?.content is Data)  // no standard transformers: the text stays bytes
    }

    @Test("a service made with no options uses the defaults: the real provider and text and JSON parsing")
    func defaults() {
        let service = Service(baseURL: "https://api.example.com")
        LifetimeCheck.track(service)
        #expect(service.networking is URLSessionProvider)
        #expect(Service.Options().standardTransformers == StandardTransformer.defaults)
    }
}
