import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Service lifetime: a dropped service frees everything it held", .checksLifetimes)
struct ServiceLifetimeTests {
    final class Owner {}

    private func makeService(network: ManualNetwork = ManualNetwork()) -> Service {
        let service = Service(
            baseURL: "https://zingle.frotz/v1", options: .init(networking: network, scheduler: TestScheduler()))
        LifetimeCheck.track(service)
        return service
    }

    @Test("D13 a service the app drops is freed with its loaded, observed and cached resources and its requests")
    func droppedServiceIsFreed() async {
        let network = ManualNetwork()
        weak var weakService: Service?
        weak var weakResource: Resource?
        weak var weakRequest: Request?
        weak var weakCore: ServiceCore?
        var owner: Owner? = Owner()
        do {
            let service = makeService(network: network)
            let resource = service.resource("/users/42")
            resource.addObserver(owner: owner!) { _, _ in }
            let request = resource.load()
            await network.respond(status: 200, contentType: "text/plain", text: "hello")
            _ = await request.responseInfo
            #expect(resource.text == "hello")
            _ = service.resource("/cached/but/unused")
            (weakService, weakResource, weakRequest, weakCore) = (service, resource, request, service.core)
        }
        #expect(weakService == nil)
        // The owner still lives, so the resource is still observed: dropping the service frees it all the same.
        #expect(weakResource == nil)
        #expect(weakRequest == nil)
        #expect(weakCore == nil)
        owner = nil
    }

    @Test("D13 a resource the app keeps still loads after its service is dropped, and hands back a service")
    func keptResourceOutlivesService() async {
        let network = ManualNetwork()
        let resource = makeService(network: network).resource("/users/42")
        let request = resource.load()
        await network.respond(status: 200, contentType: "text/plain", text: "still here")
        _ = await request.responseInfo
        #expect(resource.text == "still here")

        let service = resource.service
        #expect(service.resource("/users/42") === resource)
        #expect(resource.child("repos") === service.resource("/users/42/repos"))
    }

    @Test("B20 while the app holds its service, an observed resource the app dropped stays alive")
    func heldServiceKeepsObservedResources() {
        let service = makeService()
        let owner = Owner()
        weak var weakResource: Resource?
        do {
            let resource = service.resource("/observed")
            resource.addObserver(owner: owner) { _, _ in }
            weakResource = resource
        }
        service.flushUnusedResources()
        #expect(weakResource != nil)
        #expect(service.resource("/observed") === weakResource)
        withExtendedLifetime(owner) {}
    }
}
