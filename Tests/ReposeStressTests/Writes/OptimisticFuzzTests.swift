import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Random interleavings of writes and loads over a few resources, checked after every step against a model of
/// the layers (rules M2–M5): a resource shows the data of its latest load with every pending change applied in start
/// order, and never a value that neither the server nor a pending change holds.
@MainActor
@Suite("Optimistic changes under random interleavings", .checksLifetimes)
struct OptimisticFuzzTests {
    /// What the test expects of one resource.
    struct Model {
        /// What the server holds now.
        var server: [String: Int] = [:]
        /// The server data the resource holds: what its latest completed load brought.
        var base: [String: Int]?
        /// Pending changes in start order: id, field, value, and when they settled.
        var changes: [(id: Int, field: String, value: Int, settledAt: Int?)] = []
        var settleCount = 0

        var expected: [String: Int]? {
            guard base != nil || !changes.isEmpty else { return nil }
            var shown = base ?? [:]
            for change in changes { shown[change.field] = change.value }
            return shown
        }
    }

    /// A request the test has in flight, in the order the network received them.
    enum Operation {
        case write(Request, resource: Int, id: Int, field: String, value: Int)
        case load(Request, resource: Int, settledBy: Int)

        var request: Request {
            switch self {
            case .write(let request, _, _, _, _), .load(let request, _, _): request
            }
        }
    }

    static let fields = ["a", "b", "c"]

    @Test("M2 M3 M4 M5 1,000 random starts, successes, failures, cancels and reloads keep every view consistent")
    func randomInterleavings() async {
        await FuzzRun().check("optimistic layers", cases: 3, filter: "OptimisticFuzz") { fuzz in
            let harness = Harness()
            let outcome = await Self.run(&fuzz, harness: harness, steps: 1_000)
            await harness.network.failPending()
            return outcome
        }
    }

    /// One random run; returns what went wrong, or `nil`.
    private static func run(_ fuzz: inout FuzzCase, harness: Harness, steps: Int) async -> String? {
        let resources = (0..<3).map { harness.service.resource("/items/\($0)") }
        var models = Array(repeating: Model(), count: resources.count)
        var inFlight: [Operation] = []
        var nextValue = 1
        for step in 0..<steps {
            let index = fuzz.int(in: 0...(resources.count - 1))
            let resource = resources[index]
            let choice = inFlight.isEmpty ? 0 : fuzz.int(in: 0...9)
            switch choice {
            case 0...2:  // a write starts
                let field = fuzz.pick(fields)
                nextValue += 1
                let request = resource.request(.patch, json: [field: nextValue], showing: .merge([field: nextValue]))
                let id = resource.record.layers?.changes.last?.id ?? -1
                models[index].changes.append((id, field, nextValue, nil))
                inFlight.append(.write(request, resource: index, id: id, field: field, value: nextValue))
                fuzz.note("\(step): start PATCH \(resource.url.path) \(field)=\(nextValue)")
            case 3:  // a load starts
                inFlight.append(.load(resource.load(), resource: index, settledBy: models[index].settleCount))
                fuzz.note("\(step): start load \(resource.url.path)")
            default:  // something in flight ends: success, failure or cancel
                let position = fuzz.int(in: 0...(inFlight.count - 1))
                let operation = inFlight.remove(at: position)
                let outcome = fuzz.int(in: 0...9)
                switch operation {
                case .write(let request, let target, let id, let field, let value):
                    if outcome < 5 {
                        await harness.network.respond(toPendingAt: position, status: 204)
                        models[target].server[field] = value
                        models[target].settleCount += 1
                        if let i = models[target].changes.firstIndex(where: { $0.id == id }) {
                            models[target].changes[i].settledAt = models[target].settleCount
                        }
                        fuzz.note("\(step): PATCH \(field)=\(value) succeeds")
                    } else {
                        if outcome < 8 {
                            await harness.network.respond(toPendingAt: position, status: 500)
                        } else {
                            request.cancel()
                        }
                        models[target].changes.removeAll { $0.id == id }
                        fuzz.note("\(step): PATCH \(field)=\(value) \(outcome < 8 ? "fails" : "is cancelled")")
                    }
                    _ = await request.responseInfo
                case .load(let request, let target, let settledBy):
                    if outcome < 8 {
                        let body = (try? JSONSerialization.data(withJSONObject: models[target].server)) ?? Data()
                        await harness.network.respond(
                            toPendingAt: position, headers: ["Content-Type": "application/json"], body: body)
                        models[target].base = models[target].server
                        models[target].changes.removeAll { ($0.settledAt ?? .max) <= settledBy }
                        fuzz.note("\(step): load of \(resources[target].url.path) brings \(models[target].server)")
                    } else {
                        request.cancel()
                        fuzz.note("\(step): load of \(resources[target].url.path) is cancelled")
                    }
                    _ = await request.responseInfo
                }
            }
            for (position, resource) in resources.enumerated() {
                if let failure = check(resource, against: models[position]) {
                    return "after step \(step), \(resource.url.path): \(failure)"
                }
            }
        }
        for operation in inFlight { operation.request.cancel() }
        return nil
    }

    /// `nil` when `resource` shows what `model` expects and nothing that neither the server nor a change holds.
    private static func check(_ resource: Resource, against model: Model) -> String? {
        let shown = (resource.latestData?.content as? [String: Any])?.compactMapValues { ($0 as? NSNumber)?.intValue }
        if resource.latestData != nil, shown == nil { return "shows content that is not a dictionary" }
        if let shown {
            for (field, value) in shown {
                let held =
                    [model.server[field], model.base?[field]] + model.changes.map { $0.field == field ? $0.value : nil }
                if !held.contains(value) {
                    return "shows \(field)=\(value), which neither the server nor a change holds"
                }
            }
        }
        if shown != model.expected { return "shows \(shown ?? [:]), expected \(model.expected ?? [:])" }
        if resource.currentState.pendingChanges != model.changes.count {
            return "\(resource.currentState.pendingChanges) pending changes, expected \(model.changes.count)"
        }
        return nil
    }
}
