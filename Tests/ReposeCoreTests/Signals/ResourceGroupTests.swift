import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

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
        #expect(display(group.state.value) == "allData")  // the default priority tells all from some
        #expect(group.state.value.hasAllData)
        group.remove(user)
        #expect(group.members.count == 1)
        user.wipe()
        #expect(group.state.value.hasAllData)
    }

    @Test("by default a screen tells some data from all data; the old priority still shows any data for both")
    func someOrAll() async {
        let user = harness.service.resource("/user")
        let repos = harness.service.resource("/repos")
        let group = ResourceGroup([user, repos])
        let legacy = ResourceGroup([user, repos], priority: [.loading, .error, .anyData])
        #expect(group.priority == ResourceGroup.defaultPriority)
        await harness.answer(user.load(), text: "u")
        #expect(display(group.state.value) == "anyData" && display(legacy.state.value) == "anyData")
        await harness.answer(repos.load(), text: "r")
        #expect(display(group.state.value) == "allData" && display(legacy.state.value) == "anyData")
        let state = group.state.value
        #expect(state.memberCount == 2 && state.dataCount == 2 && state.loadingCount == 0)
    }

    @Test("S3 every member event reaches the group's observers before the member's own delivery returns")
    func synchronousDelivery() async {
        let members = (0..<50).map { harness.service.resource("/m/\($0)") }
        let group = ResourceGroup(members)
        var loadingCounts: [Int] = []
        let subscription = group.state.observe { loadingCounts.append($0.loadingCount) }
        let requests = members.map { member in
            let request = member.load()
            #expect(group.state.value.loadingCount == loadingCounts.last)
            return request
        }
        #expect(loadingCounts == Array(0...50))
        for request in requests {
            await harness.answer(request, text: "x")
        }
        #expect(loadingCounts.suffix(51) == Array((0...50).reversed()))
        #expect(display(group.state.value) == "allData")
        subscription.cancel()
    }

    @Test("the first error is the first failed member's, in member order, as members fail and recover in any order")
    func firstErrorOrder() async {
        let members = (0..<4).map { harness.service.resource("/m/\($0)") }
        let group = ResourceGroup(members)
        await harness.answer(members[2].load(), status: 502)
        await harness.answer(members[3].load(), status: 503)
        #expect(group.state.value.firstError?.httpStatusCode == 502)
        await harness.answer(members[0].load(), status: 500)
        #expect(group.state.value.firstError?.httpStatusCode == 500)
        await harness.answer(members[0].load(), status: 501)  // a newer error replaces the member's old one
        #expect(group.state.value.firstError?.httpStatusCode == 501)
        await harness.answer(members[0].load(), text: "ok")
        #expect(group.state.value.firstError?.httpStatusCode == 502)
        #expect(group.state.value.errors.count == 2)
        group.remove(members[2])
        #expect(group.state.value.firstError?.httpStatusCode == 503)
        #expect(group.state.value.memberCount == 3 && group.state.value.dataCount == 1)
    }

    @Test("a member that joins with data, loading or an error counts at once; adding it twice counts it once")
    func joiningMembers() async {
        let loaded = harness.service.resource("/loaded")
        await harness.answer(loaded.load(), text: "x")
        let failed = harness.service.resource("/failed")
        await harness.answer(failed.load(), status: 404)
        let loading = harness.service.resource("/loading")
        let request = loading.load()
        let group = ResourceGroup([loaded, failed, loaded])
        group.add(loading)
        group.add(failed)
        let state = group.state.value
        #expect(group.members.count == 3 && state.memberCount == 3)
        #expect(state.dataCount == 1 && state.loadingCount == 1 && state.errors.count == 1)
        #expect(display(state) == "loading")
        await harness.answer(request, text: "y")
        #expect(display(group.state.value) == "error(404)")
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
