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
        .library(name: "ReposeTesting", targets: ["ReposeTesting"]),
        .executable(name: "repose-demo", targets: ["repose-demo"]),
    ],
    targets: [
        .target(name: "ReposeSignals"),
        .target(name: "Repose", dependencies: ["ReposeSignals"]),
        .target(name: "ReposeTesting", dependencies: ["Repose"]),
        .executableTarget(name: "repose-demo", dependencies: ["Repose"]),

        .executableTarget(name: "SignalsTour", dependencies: ["ReposeSignals"], path: "Playgrounds/SignalsTour"),
        .executableTarget(
            name: "ResourceBasics", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/ResourceBasics"),
        .executableTarget(
            name: "ViewModels", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/ViewModels"),
        .executableTarget(
            name: "OfflineFirst", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/OfflineFirst"),
        .executableTarget(name: "Freshness", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/Freshness"),
        .executableTarget(
            name: "TransformerPipeline", dependencies: ["Repose"], path: "Playgrounds/TransformerPipeline"),
        .executableTarget(
            name: "PagedList", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/PagedList"),
        .executableTarget(
            name: "Writes", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/Writes"),
        .executableTarget(
            name: "LiveResources", dependencies: ["Repose", "ReposeTesting"], path: "Playgrounds/LiveResources"),

        // Child processes: the cache crash and outbox kill tests kill one mid-write; the upload and download memory
        // tests measure one.
        .executableTarget(name: "repose-cache-writer", dependencies: ["Repose"], path: "Tests/CacheWriter"),
        .executableTarget(name: "repose-upload-probe", dependencies: ["Repose"], path: "Tests/UploadProbe"),
        .executableTarget(name: "repose-outbox-writer", dependencies: ["Repose"], path: "Tests/OutboxWriter"),
        .executableTarget(name: "repose-download-probe", dependencies: ["Repose"], path: "Tests/DownloadProbe"),
        // The first-server guide's program, run twice in a row to show that a second run sends nothing.
        .executableTarget(name: "repose-first-server", dependencies: ["Repose"], path: "Tests/FirstServerProgram"),

        .testTarget(name: "ReposeSignalsTests", dependencies: ["ReposeSignals"]),
        // The library's tests, in two modules so that a release build optimizes them on two cores at once, over
        // the fixtures they share (the loopback server, harnesses, recording doubles), kept apart from the tests.
        .target(name: "ReposeTestSupport", dependencies: ["Repose", "ReposeTesting"], path: "Tests/ReposeTestSupport"),
        // State, resources, configuration, the pipeline, lists and the guide's pages: the stub provider only.
        .testTarget(name: "ReposeTests", dependencies: ["Repose", "ReposeTesting", "ReposeTestSupport"]),
        // What talks to a server, a disk or another process: requests, networking, caches, the outbox, logging.
        .testTarget(name: "ReposeIOTests", dependencies: ["Repose", "ReposeTesting", "ReposeTestSupport"]),
        // Talks to real servers that `.ci/interop` starts; skipped unless their addresses are given.
        .testTarget(name: "ReposeInteropTests", dependencies: ["Repose", "ReposeTesting"], exclude: ["Servers"]),
    ]
)
