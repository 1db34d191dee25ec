// swift-tools-version: 6.2
import PackageDescription

// Tools 6.2: `Resource` uses an isolated conformance and tests use `weak let`, both new in Swift 6.2.
// Platform minimums: Observation (`@Observable`, used by the view-model bridge) needs macOS 14 / iOS 17 /
// tvOS 17 / watchOS 10; `Duration` and `Clock`, which the schedulers use, are older than that. Linux needs
// nothing declared.
let package = Package(
    name: "Repose",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "ReposeSignals", targets: ["ReposeSignals"]),
        .library(name: "Repose", targets: ["Repose"]),
        .library(name: "ReposeLists", targets: ["ReposeLists"]),
        .library(name: "ReposeStorage", targets: ["ReposeStorage"]),
        .library(name: "ReposeTesting", targets: ["ReposeTesting"]),
    ] + (buildsPrograms() ? [.executable(name: "repose-demo", targets: ["repose-demo"])] : []),
    targets: [
        .target(name: "ReposeSignals"),
        .target(name: "Repose", dependencies: ["ReposeSignals"]),
        // Paged lists: a pure client of Repose's public API and five `package` seams, in a module of its own.
        .target(name: "ReposeLists", dependencies: ["Repose"]),
        // Disk persistence: the file entity cache and the outbox's journal, behind `EntityCache` and a five-call
        // `package` storage protocol, with the private-file helpers they share.
        .target(name: "ReposeStorage", dependencies: ["Repose"]),
        .target(name: "ReposeTesting", dependencies: ["Repose"]),
    ] + programs() + playgrounds() + testTargets()
)

/// The test groups a build asks for (`REPOSE_TEST_GROUPS`, comma-separated), or `nil`, the usual case, for every one.
func askedGroups() -> Set<String>? {
    Context.environment["REPOSE_TEST_GROUPS"].map { Set($0.split(separator: ",").map(String.init)) }
}

/// Whether the build has the demo and the programs the disk and HTTP tests run: every build but one that asks only
/// for test groups that run none of them (CI's release step links fewer programs so).
func buildsPrograms() -> Bool {
    askedGroups().map { !$0.isDisjoint(with: ["disk", "http"]) } ?? true
}

/// The demo, and the programs tests run as child processes.
func programs() -> [Target] {
    guard buildsPrograms() else { return [] }
    return [
        .executableTarget(name: "repose-demo", dependencies: ["Repose", "ReposeLists", "ReposeStorage"]),
        // Child processes: the cache crash and outbox kill tests kill one mid-write; the upload and download memory
        // tests measure one.
        .executableTarget(
            name: "repose-cache-writer", dependencies: ["Repose", "ReposeStorage"], path: "Tests/CacheWriter"),
        .executableTarget(name: "repose-upload-probe", dependencies: ["Repose"], path: "Tests/UploadProbe"),
        .executableTarget(
            name: "repose-outbox-writer", dependencies: ["Repose", "ReposeStorage"], path: "Tests/OutboxWriter"),
        .executableTarget(name: "repose-download-probe", dependencies: ["Repose"], path: "Tests/DownloadProbe"),
        // The first-server guide's program, run twice in a row to show that a second run sends nothing.
        .executableTarget(
            name: "repose-first-server", dependencies: ["Repose", "ReposeStorage"],
            path: "Tests/FirstServerProgram"),
    ]
}

/// The playgrounds, in a build that asks for no test groups (the README's `swift build` and `swift test`, whose build
/// CI runs them from): no test runs one.
func playgrounds() -> [Target] {
    guard askedGroups() == nil else { return [] }
    return [
        .executableTarget(name: "SignalsTour", dependencies: ["ReposeSignals"], path: "Playgrounds/SignalsTour"),
        .executableTarget(
            name: "ResourceBasics", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/ResourceBasics"),
        .executableTarget(
            name: "ViewModels", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/ViewModels"),
        .executableTarget(
            name: "OfflineFirst", dependencies: ["Repose", "ReposeStorage", "ReposeTesting"],
            path: "Playgrounds/OfflineFirst"),
        .executableTarget(name: "Freshness", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/Freshness"),
        .executableTarget(
            name: "TransformerPipeline", dependencies: ["Repose"], path: "Playgrounds/TransformerPipeline"),
        .executableTarget(
            name: "PagedList", dependencies: ["Repose", "ReposeLists", "ReposeTesting"], path: "Playgrounds/PagedList"),
        .executableTarget(
            name: "Writes", dependencies: ["Repose", "ReposeStorage", "ReposeTesting"], path: "Playgrounds/Writes"),
        .executableTarget(
            name: "LiveResources", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/LiveResources"),
        .executableTarget(name: "Streaming", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/Streaming"),
    ]
}

/// The tests: one target per kind of thing they touch, so that each step of `.ci/run` builds and runs the groups where
/// it finds bugs (release mode: signals, core and stress; ThreadSanitizer: where threads meet). A build given
/// REPOSE_TEST_GROUPS (group names, comma-separated: `signals,core,stress`) declares those groups' targets only, and
/// has a scratch folder of its own (`--scratch-path .build-NAME`). Unset, every group is declared: the README's
/// `swift test` runs them all.
func testTargets() -> [Target] {
    let groups: [(name: String, usesSupport: Bool, targets: [Target])] = [
        // The signals library alone.
        (
            "signals", false,
            [.testTarget(name: "ReposeSignalsTests", dependencies: ["ReposeSignals"], swiftSettings: testCode())]
        ),
        // The stub provider and virtual time: no socket, no file, no child process. In two halves, so that a release
        // build, which compiles each module whole on one core, builds them side by side: resources, services,
        // configuration, URLs, observers, signals, lists, writes, and caches and the outbox in memory; and requests,
        // the pipeline, freshness, logging, event streams, the transport's bookkeeping and metrics.
        ("core", true, [libraryTests("ReposeCoreTests"), libraryTests("ReposeRequestTests")]),
        // Real HTTP on loopback through URLSessionProvider, against LoopbackServer and EventStreamServer.
        ("http", true, [libraryTests("ReposeHTTPTests")]),
        // The real file system in temporary folders (file caches, the outbox's folder, file parts), and child
        // processes: the cache and outbox writers killed mid-write, the upload and download probes, the demo.
        ("disk", true, [libraryTests("ReposeDiskTests")]),
        // Fuzz and property runs of thousands of cases, and a memory-flatness run of 100,000 loads.
        ("stress", true, [libraryTests("ReposeStressTests")]),
        // The guide's pages and the README: the compiled twins of their Swift blocks, and the tests of what they show.
        ("guide", true, [libraryTests("ReposeGuideTests")]),
        // Talks to real servers that `.ci/interop` starts; skipped unless their addresses are given.
        (
            "interop", false,
            [.testTarget(name: "ReposeInteropTests", dependencies: ["Repose", "ReposeTesting"], exclude: ["Servers"])]
        ),
    ]
    let chosen = askedGroups()
    if let unknown = chosen?.subtracting(groups.map(\.name)), !unknown.isEmpty {
        fatalError("REPOSE_TEST_GROUPS names no test group: \(unknown.sorted()); the groups: \(groups.map(\.name))")
    }
    let tests = groups.filter { chosen?.contains($0.name) ?? true }
    // The fixtures the library's tests share (the loopback server, harnesses, recording doubles, the fuzz runner),
    // kept apart from any test.
    let support = Target.target(
        name: "ReposeTestSupport", dependencies: ["Repose", "ReposeStorage", "ReposeTesting"],
        path: "Tests/ReposeTestSupport", swiftSettings: testCode())
    return (tests.contains(where: \.usesSupport) ? [support] : []) + tests.flatMap(\.targets)
}

/// The tests' own code is compiled without optimization in a release build too: that build is there to test the
/// optimized library, and optimizing the test code, five times its size, took half of it.
func testCode() -> [SwiftSetting] { [.unsafeFlags(["-Onone"], .when(configuration: .release))] }

func libraryTests(_ name: String) -> Target {
    .testTarget(
        name: name, dependencies: ["Repose", "ReposeLists", "ReposeStorage", "ReposeTesting", "ReposeTestSupport"],
        swiftSettings: testCode())
}
