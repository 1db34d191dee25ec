// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for ReposeSignals against a hand-written baseline and OpenCombine, and for the resource layer's hot
// paths. A separate package, so the root package keeps no dependencies. Run: `swift package --disable-sandbox
// benchmark` from this folder.
let package = Package(
    name: "ReposeBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Repose", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "SignalsBenchmarks",
            dependencies: [
                .product(name: "ReposeSignals", package: "Repose"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SignalsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The resource layer's cases, written once and run by the two drivers below.
        .target(
            name: "ResourceCases",
            dependencies: [
                .product(name: "Repose", package: "Repose"),
                .product(name: "ReposeLists", package: "Repose"),
                .product(name: "ReposeStorage", package: "Repose"),
                .product(name: "ReposeTesting", package: "Repose"),
            ],
            path: "Cases/ResourceCases"
        ),
        // The cases under ordo-one's runner, inside its task.
        .executableTarget(
            name: "ResourceBenchmarks",
            dependencies: [
                "ResourceCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ResourceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The same cases on the process's main thread, outside any task, as apps run them: `swift run -c release
        // AppLikeBenchmarks`. Not under `Benchmarks/`, where the runner would take it for one of its own. It links
        // `Benchmark` only for ordo-one's malloc interposer, which it reads to count allocations.
        .executableTarget(
            name: "AppLikeBenchmarks",
            dependencies: [
                "ResourceCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "AppLike/AppLikeBenchmarks"
        ),
        // The memory case once more without the interposer's per-allocation header: what an app pays.
        .executableTarget(
            name: "MemoryWithoutInterposer",
            dependencies: ["ResourceCases"],
            path: "AppLike/MemoryWithoutInterposer"
        ),
    ]
)
