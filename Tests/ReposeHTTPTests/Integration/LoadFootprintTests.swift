import Foundation
import Testing

@testable import Repose
@testable import ReposeTestSupport

/// Records which code one load runs, for `.ci/load-footprint` and the table of Docs/Architecture.md ("One load, end
/// to end"): the profile holds only what ran from the call to `loadIfNeeded()` to the observer hearing `newData`.
///
/// Only a build with code coverage and `-D REPOSE_LOAD_FOOTPRINT` has the profile runtime's calls; any other build
/// skips the test, so the usual suite neither needs them nor has its own coverage reset.
@MainActor
@Suite("The code one load runs", .checksLifetimes, .enabled(if: LoadFootprint.output != nil))
final class LoadFootprintTests {
    let fixture: IntegrationFixture

    init() async throws {
        fixture = try await IntegrationFixture()
    }

    @Test("a second load, of a small JSON body to a closure observer, is recorded from its call to newData")
    func secondLoad() async throws {
        // The first load makes the session and builds the configuration, which later loads reuse.
        let first = try #require(fixture.service.resource("/echo").loadIfNeeded())
        try #require(await fixture.completion(of: first) != nil)

        let resource = fixture.service.resource("/status/200").withParam("body", "json")
        var heard: [String] = []
        resource.addObserver(owner: self) { _, event in
            guard case .newData = event else { return }
            heard.append(LoadFootprint.write())
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

/// The profile runtime's counters, reset when the load starts and written where `REPOSE_LOAD_FOOTPRINT` says.
enum LoadFootprint {
    /// Where the profile goes, in a build that can write one.
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
    static func write() -> String {
        #if REPOSE_LOAD_FOOTPRINT
        guard let output else { return "no file" }
        setProfileFileName(output)
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
