import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Records which code one load runs, for `.ci/load-footprint` and the table of Docs/Architecture.md ("One load, end
/// to end"): each profile holds only what ran from the call to `loadIfNeeded()` to the observer hearing `newData`,
/// or from the making of a streamed request to the end of its lines.
///
/// Only a build with code coverage and `-D REPOSE_LOAD_FOOTPRINT` has the profile runtime's calls; any other build
/// skips the suite, so the usual suite neither needs them nor has its own coverage reset. Serialized: the counters
/// are the process's.
@MainActor
@Suite("The code one load runs", .serialized, .checksLifetimes, .enabled(if: LoadFootprint.output != nil))
final class LoadFootprintTests {
    let fixture: IntegrationFixture

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("a load right after the service's first, whose progress tick is still to come, is recorded to newData")
    func loadAfterTheFirst() async throws {
        try await firstLoad()
        try await recordLoad(as: "next")
    }

    @Test("a load on an idle service, which schedules the progress tick itself, is recorded to newData")
    func loadOnAnIdleService() async throws {
        try await firstLoad()
        // The first load's tick has run by the time a timer set now for as long runs.
        await withCheckedContinuation { (ticked: CheckedContinuation<Void, Never>) in
            fixture.service.core.timers.after(ProgressTicker.interval) { ticked.resume() }
        }
        try await recordLoad(as: "idle")
    }

    @Test("a streamed request of a resource used before is recorded from its making to the end of its lines")
    func streamedRequest() async throws {
        try await firstLoad()
        // A resource the app has used before: made, and its configuration built.
        let resource = fixture.service.resource("/lines").withParam("count", "3")
        _ = resource.configuration(for: .get)
        LoadFootprint.start()
        let streamed = resource.streamRequest()
        var lines: [String] = []
        for try await line in streamed.lines { lines.append(line) }
        let written = LoadFootprint.write("streamed")
        #expect(written == "written")
        #expect(lines.count == 3)
    }

    /// The service's first load, which makes the session and builds the configuration that later loads reuse.
    private func firstLoad() async throws {
        let first = try #require(fixture.service.resource("/echo").loadIfNeeded())
        try #require(await fixture.completion(of: first) != nil)
    }

    /// Loads a small JSON body to a closure observer with the counters reset, and writes them when it hears newData.
    private func recordLoad(as name: String) async throws {
        let resource = fixture.service.resource("/status/200").withParam("body", "json")
        var heard: [String] = []
        resource.addObserver(owner: self) { _, event in
            guard case .newData = event else { return }
            heard.append(LoadFootprint.write(name))
        }
        LoadFootprint.start()
        let request = try #require(resource.loadIfNeeded())
        // Waits without calling Repose (the fixture's wait describes the request), so only the load is recorded.
        try #require(await waitUntil { !heard.isEmpty })
        try #require(await fixture.completion(of: request) != nil)
        #expect(heard == ["written"])
        #expect(resource.latestData?.contentType == "application/json")
    }
}

/// The profile runtime's counters, reset when a load starts and written to `REPOSE_LOAD_FOOTPRINT-NAME.profraw`.
enum LoadFootprint {
    /// Where the profiles go, in a build that can write them.
    static let output: String? = {
        #if REPOSE_LOAD_FOOTPRINT
        ProcessInfo.processInfo.environment["REPOSE_LOAD_FOOTPRINT"]
        #else
        nil
        #endif
    }()

    static func start() {
        #if REPOSE_LOAD_FOOTPRINT
        resetProfileCounters()
        #endif
    }

    /// Writes the counters so far, then points the runtime back at the file `swift test` gave it, so that what it
    /// writes at exit does not replace them.
    static func write(_ name: String) -> String {
        #if REPOSE_LOAD_FOOTPRINT
        guard let output else { return "no file" }
        setProfileFileName("\(output)-\(name).profraw")
        defer { setProfileFileName(ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] ?? "default.profraw") }
        return writeProfile() == 0 ? "written" : "failed"
        #else
        return "not measured"
        #endif
    }
}

#if REPOSE_LOAD_FOOTPRINT
// The profile runtime's own calls (compiler-rt, linked into a build with coverage), which it does not export.
@_silgen_name("__llvm_profile_reset_counters") private func resetProfileCounters()
@_silgen_name("__llvm_profile_write_file") private func writeProfile() -> Int32
@_silgen_name("__llvm_profile_set_filename") private func setProfileFileName(_ name: UnsafePointer<CChar>)
#endif
