import Foundation
import Testing

@testable import Repose

/// Checks, when each test ends, that every service the test made is freed, and with it every resource, request and
/// observer it held.
///
/// Fixtures (`Harness`, `IntegrationFixture`, and tests that make a `Service` themselves) call
/// ``track(_:sourceLocation:)``; a suite that builds services declares `@Suite(.checksLifetimes)`. Tracking the
/// service's core is enough: every resource holds it, every request holds its resource, and a resource holds its
/// observers, so the core is freed only once all of them are.
struct LifetimeCheck: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        let tracker = LifetimeTracker()
        try await LifetimeTracker.$current.withValue(tracker) { try await function() }
        await tracker.expectEverythingFreed()
    }

    /// Registers `service` with the running test's check. Outside a checked suite it records an issue, so that a
    /// new suite cannot forget the check.
    @MainActor
    static func track(_ service: Service, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let tracker = LifetimeTracker.current else {
            Issue.record(
                "This suite builds a Service: declare it with @Suite(.checksLifetimes)", sourceLocation: sourceLocation)
            return
        }
        tracker.add(service, "the Service made at \(sourceLocation)")
        tracker.add(service.core, "the resources, requests or observers of the Service made at \(sourceLocation)")
    }
}

extension Trait where Self == LifetimeCheck {
    /// Checks after each test that the services it made were freed with everything they held.
    static var checksLifetimes: Self { LifetimeCheck() }
}

/// The objects one test asked to see freed, held weakly.
final class LifetimeTracker: @unchecked Sendable {
    // Safe: `entries` is only touched under `lock`.
    @TaskLocal static var current: LifetimeTracker?

    private struct Entry {
        weak var object: AnyObject?
        let label: String
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func add(_ object: AnyObject, _ label: String) {
        lock.withLock { entries.append(Entry(object: object, label: label)) }
    }

    private var survivors: [String] {
        lock.withLock { entries.filter { $0.object != nil }.map(\.label) }
    }

    /// Gives what is already under way up to ``Patience/wait`` of turns to let go (a response being delivered holds its
    /// request on the main queue; the networking queue that delivered it holds it until its call returns; a
    /// cancelled URLSession task lets go of its callbacks after a hop through the provider's queue and the
    /// session's, which under a sanitizer can take longer than a fixed number of quick turns), then records an
    /// issue for everything still alive. It stops as soon as nothing is.
    @MainActor
    func expectEverythingFreed() async {
        let deadline = ContinuousClock.now + Patience.wait
        while !survivors.isEmpty, ContinuousClock.now < deadline {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    DispatchQueue.main.async { continuation.resume() }
                }
            }
        }
        let alive = survivors
        let counted = Dictionary(alive.map { ($0, 1) }, uniquingKeysWith: +)
            .map { label, count in count == 1 ? label : "\(count) × \(label)" }.sorted()
        #expect(alive.isEmpty, "Still alive after the test ended: \(counted.joined(separator: "; "))")
    }
}
