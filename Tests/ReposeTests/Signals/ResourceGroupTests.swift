import Foundation
import Testing

@testable import Repose

@MainActor
@Suite("Resource groups", .checksLifetimes)
struct ResourceGroupTests {
    let harness = Harness()

    func display(_ state: ResourceGroupState) -> String {
        switch state.display {
        case .loading: "loading"
        case .error(let error): "error(\(error.httpStatusCode ?? 0))"
        case .anyData: "anyData"
        case .allData: "allData"
        case .empty: "empty"
        }
    }

    @Test("the group's status follows its members: loading beats error beats data by default")
    func defaultPriority() async {
        let user = harness.service.resource("/user")
        let repos = harness.service.resource("/repos")
        let group = ResourceGroup([user, repos])
        var displays: [String] = []
        let subscription = group.state.observe { displays.append(display($0)) }
        group.loadIfNeeded()
        await harness.answer(user.loadRequests[0], text: "u")
        await harness.answer(repos.loadRequests[0], status: 503)
        #expect(displays == ["empty", "loading", "loading", "loading", "error(503)"])
        #expect(group.state.value.errors[repos.url]?.httpStatusCode == 503)
        #expect(group.state.value.hasAnyData && !group.state.value.hasAllData)
        subscription.cancel()
    }

    @Test("allData wins when the priority puts it first")
    func allDataFirst() async {
        let user = harness.service.resource("/user")
        let group = ResourceGroup([user], priority: [.allData, .loading, .error, .anyData])
        await harness.answer(user.load(), text: "u")
        user.load()
        #expect(display(group.state.value) == "allData")
    }

    @Test("a custom priority lets data win over errors")
    func customPriority() async {
        let user = harness.service.resource("/user")
        let repos = harness.service.resource("/repos")
        let group = ResourceGroup([user, repos], priority: [.anyData, .loading, .error])
        await harness.answer(user.load(), text: "u")
        await harness.answer(repos.load(), status: 500)
        #expect(display(group.state.value) == "anyData")
    }

    @Test("members can be added and removed at any time; retryFailed reloads only failed members")
    func membershipAndRetry() async {
        let user = harness.service.resource("/user")
        let repos = harness.service.resource("/repos")
        let group = ResourceGroup([user])
        await harness.answer(user.load(), status: 500)
        group.add(repos)
        await harness.answer(repos.load(), text: "r")
        #expect(group.state.value.errors.count == 1)
        group.retryFailed()
        #expect(user.isLoading && !repos.isLoading)
        await harness.answer(user.loadRequests[0], text: "u")
        #expect(display(group.state.value) == "anyData")  // the default priority has no allData
        #expect(group.state.value.hasAllData)
        group.remove(user)
        #expect(group.members.count == 1)
        user.wipe()
        #expect(group.state.value.hasAllData)
    }

    @Test("a group that goes away stops observing its members, which become flushable")
    func groupLifetime() {
        weak var weakMember: Resource?
        var group: ResourceGroup?
        do {
            let member = harness.service.resource("/member")
            group = ResourceGroup([member])
            weakMember = member
        }
        harness.service.flushUnusedResources()
        #expect(weakMember != nil)
        #expect(group?.members.count == 1)
        group = nil
        harness.service.flushUnusedResources()
        #expect(weakMember == nil)
    }
}
