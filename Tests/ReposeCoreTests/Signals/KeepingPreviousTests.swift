import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Keeping the previous data while the next resource loads", .checksLifetimes)
struct KeepingPreviousTests {
    let harness = Harness()
    let query = MutableState("")

    /// The debounced search of the Signals guide, keeping the previous results, on the harness's virtual time.
    func results(autoloading: Bool = true) -> State<ResourceState<Any>> {
        let service = harness.service
        return query.state.signal
            .debounce(for: .milliseconds(300), scheduler: harness.scheduler)
            .hold(initial: "")
            .flatMapLatestKeepingPrevious { text in
                guard !text.isEmpty else { return nil }
                let resource = service.resource("/search").withParam("q", text)
                return autoloading ? resource.autoloadingState(cancelDelay: 0) : resource.state
            }
    }

    /// Types `text` and lets the debounce pass it.
    func type(_ text: String) {
        query.value = text
        harness.scheduler.advance(by: .milliseconds(300))
    }

    /// Answers the oldest pending search with `text` and waits for its completion.
    func answer(_ text: String, status: Int = 200) async {
        let request = harness.service.resource("/search").withParam("q", query.value).loadRequests.first
        await harness.network.respond(status: status, contentType: "text/plain", text: text)
        _ = await request?.responseInfo
    }

    @Test("X3 after a switch the previous resource's data shows, marked as previous, until the new one has data")
    func switchKeepsPrevious() async {
        let results = results()
        var shown: [String] = []
        let subscription = results.observe { state in
            shown.append(
                "\(state.text.isEmpty ? "-" : state.text)\(state.isLoading ? " loading" : "")"
                    + (state.isPrevious ? " previous" : ""))
        }
        type("a")
        await answer("results for a")
        type("ad")
        #expect(results.value.isPrevious)
        type("ada")  // a second switch before "ad" answered keeps the same previous data
        harness.scheduler.advance()  // the search for "ad", left unobserved, is cancelled
        #expect(harness.network.pendingCount == 1)
        await answer("results for ada")
        #expect(
            shown == [
                "-", "- loading", "results for a", "results for a loading previous", "results for a loading previous",
                "results for ada",
            ])
        #expect(!results.value.isPrevious)
        subscription.cancel()
    }

    @Test("X3 an error on the new resource shows the error, not the previous data")
    func errorEndsPrevious() async {
        let results = results()
        var latest: ResourceState<Any>?
        let subscription = results.observe { latest = $0 }
        type("a")
        await answer("results for a")
        type("ad")
        #expect(latest?.text == "results for a")
        await answer("", status: 500)
        #expect(latest?.latestError?.httpStatusCode == 500)
        #expect(latest?.latestData == nil)
        #expect(latest?.isPrevious == false)
        subscription.cancel()
    }

    @Test("X3 asked to, the previous data stays beside the new resource's error, marked as previous, until it has data")
    func besideErrors() async {
        let service = harness.service
        let results = query.state.signal
            .debounce(for: .milliseconds(300), scheduler: harness.scheduler)
            .hold(initial: "")
            .flatMapLatestKeepingPrevious(besideErrors: true) { text in
                text.isEmpty ? nil : service.resource("/search").withParam("q", text).autoloadingState(cancelDelay: 0)
            }
        var latest: ResourceState<Any>?
        let subscription = results.observe { latest = $0 }
        type("a")
        await answer("results for a")
        type("ad")
        await answer("", status: 500)
        #expect(latest?.latestError?.httpStatusCode == 500)
        #expect(latest?.text == "results for a")
        #expect(latest?.isPrevious == true)
        #expect(latest?.isLoading == false)
        let retry = service.resource("/search").withParam("q", "ad").load()
        #expect(latest?.text == "results for a" && latest?.isLoading == true)
        await harness.network.respond(status: 200, contentType: "text/plain", text: "results for ad")
        _ = await retry.responseInfo
        #expect(latest?.text == "results for ad")
        #expect(latest?.isPrevious == false)
        #expect(latest?.latestError == nil)
        subscription.cancel()
    }

    @Test("X3 a new resource that has data shows it at once, and no resource shows empty and forgets the previous")
    func dataAtOnceAndNothing() async {
        let results = results()
        var latest: ResourceState<Any>?
        let subscription = results.observe { latest = $0 }
        type("a")
        await answer("results for a")
        type("ad")
        await answer("results for ad")
        type("a")  // back to an earlier query: its own data, at once
        #expect(latest?.text == "results for a")
        #expect(latest?.isPrevious == false)
        type("")
        #expect(latest?.latestData == nil)
        #expect(latest?.isPrevious == false)
        type("adi")  // nothing to keep: the empty list shows while it loads
        #expect(latest?.latestData == nil)
        #expect(latest?.isLoading == true)
        subscription.cancel()
    }

    @Test("X3 once the new resource has answered, wiping it shows empty rather than the data it replaced")
    func wipeAfterArrival() async {
        let results = results()
        var latest: ResourceState<Any>?
        let subscription = results.observe { latest = $0 }
        type("a")
        await answer("results for a")
        type("ad")
        await answer("results for ad")
        harness.service.resource("/search").withParam("q", "ad").wipe()
        #expect(latest?.latestData == nil)
        #expect(latest?.isPrevious == false)
        subscription.cancel()
    }

    @Test("X3 once the owner is gone the state stops following at the next change, and the resources are released")
    func ownerGoesAway() {
        let results = results(autoloading: false)
        var owner: NSObject? = NSObject()
        var count = 0
        if let owner { results.observe(owner: owner) { _ in count += 1 } }
        type("a")
        harness.service.resource("/search").withParam("q", "a").overrideLocalContent(with: "results for a")
        type("ad")
        #expect(results.value.isPrevious)
        weak let weakResource = harness.service.resource("/search").withParam("q", "ad")
        let before = count
        owner = nil
        harness.service.resource("/search").withParam("q", "ad").overrideLocalContent(with: "results for ad")
        #expect(count == before)  // the owner is gone: its handler hears nothing more, and the observation ends
        harness.service.flushUnusedResources()
        #expect(weakResource == nil)
        #expect(!results.value.isPrevious)  // unobserved, it reads the chosen resource's own state
    }
}

@Suite("The keep-previous machine, without signals")
struct KeepPreviousMachineTests {
    static func state(_ text: String?, loading: Bool = false, failed: Bool = false) -> ResourceState<String> {
        ResourceState(
            content: text, latestData: text.map { Entity<Any>(content: $0, contentType: "text/plain") },
            latestError: failed ? RequestError(userMessage: "failed", cause: nil) : nil, isLoading: loading,
            isRequesting: loading,
            timestamp: 0)
    }

    @Test("X3 a switch keeps the data shown last, over the new resource's activity, until the new one answers")
    func switchAndAnswer() {
        var machine = KeepPreviousMachine<String>()
        machine.startSwitch()
        #expect(machine.receive(Self.state("a")).content == "a")
        machine.startSwitch()
        let waiting = machine.receive(Self.state(nil, loading: true))
        #expect(waiting.content == "a" && waiting.isPrevious && waiting.isLoading)
        machine.startSwitch()
        #expect(machine.receive(Self.state(nil, loading: true)).content == "a")  // kept across two switches
        let failed = machine.receive(Self.state(nil, failed: true))
        #expect(failed.content == nil && !failed.isPrevious && failed.latestError != nil)
    }

    @Test("X3 kept beside errors, an error of the new resource shows over the previous data until data arrives")
    func besideErrorsMachine() {
        var machine = KeepPreviousMachine<String>(besideErrors: true)
        machine.startSwitch()
        _ = machine.receive(Self.state("a"))
        machine.startSwitch()
        let failed = machine.receive(Self.state(nil, failed: true))
        #expect(failed.content == "a" && failed.isPrevious && failed.latestError != nil)
        let retrying = machine.receive(Self.state(nil, loading: true, failed: true))
        #expect(retrying.content == "a" && retrying.isPrevious && retrying.isLoading)
        let arrived = machine.receive(Self.state("b"))
        #expect(arrived.content == "b" && !arrived.isPrevious && arrived.latestError == nil)
    }

    @Test("X3 after the new resource answered its states pass unchanged; switching to nothing forgets the data")
    func afterAnswerAndNothing() {
        var machine = KeepPreviousMachine<String>()
        machine.startSwitch()
        _ = machine.receive(Self.state("a"))
        #expect(machine.receive(Self.state(nil)).content == nil)  // a wipe of the followed resource shows
        _ = machine.receive(Self.state("b"))
        #expect(machine.switchToNothing().latestData == nil)
        machine.startSwitch()
        #expect(!machine.receive(Self.state(nil, loading: true)).isPrevious)
    }
}
