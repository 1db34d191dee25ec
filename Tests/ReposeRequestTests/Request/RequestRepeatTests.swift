import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

@MainActor
@Suite("Repeating requests", .checksLifetimes)
struct RequestRepeatTests {
    let harness = Harness()
    var service: Service { harness.service }
    var resource: Resource { service.resource("/a/b") }

    @Test("E14 repeated() picks up header changes after invalidateConfiguration()")
    func picksUpHeaders() async {
        let probe = ConfigurationProbe()
        service.configure { $0.headers["Authorization"] = "Bearer \(probe.token)" }
        let original = resource.request(.get)
        await harness.answer(original)
        probe.token = "two"
        service.invalidateConfiguration()
        original.repeated().start()
        let sent = harness.network.sent.map { $0.header("Authorization") }
        #expect(sent == ["Bearer one", "Bearer two"])
    }

    @Test("E14 repeated() reruns the ad hoc mutation on a freshly built request")
    func rerunsAdHocMutation() async {
        var runs = 0
        let original = resource.request(.post, text: "body") { request in
            runs += 1
            request.setValue("\(runs)", forHTTPHeaderField: "X-Run")
            request.setValue(
                request.value(forHTTPHeaderField: "X-Seen").map { "\($0)!" } ?? "fresh", forHTTPHeaderField: "X-Seen")
        }
        await harness.answer(original)
        original.repeated().start()
        let sent = harness.network.sent
        #expect(runs == 2)
        #expect(sent.map { $0.header("X-Run") } == ["1", "2"])
        #expect(sent.map { $0.header("X-Seen") } == ["fresh", "fresh"])
        #expect(sent.map(\.body) == [Data("body".utf8), Data("body".utf8)])
    }

    @Test("E14 repeated() does not run decorators again")
    func noDecoratorsAgain() async {
        var decorations = 0
        service.configure {
            $0.decorateRequests { _, request in
                decorations += 1
                return request
            }
        }
        let original = resource.request(.get)
        await harness.answer(original)
        let again = original.repeated().start()
        await harness.answer(again)
        #expect(decorations == 1)
        #expect(harness.network.sent.count == 2)
    }

    @Test("E14 repeating a load sends the If-None-Match of the data current at repeat time")
    func repeatedLoadUsesCurrentETag() async {
        let first = resource.load()
        await harness.answer(first, headers: ["ETag": "v1"])
        first.repeated().start()
        #expect(harness.network.sent.map { $0.header("If-None-Match") } == [nil, "v1"])
    }
}
