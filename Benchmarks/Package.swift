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
        .executableTarget(
            name: "ResourceBenchmarks",
            dependencies: [
                .product(name: "Repose", package: "Repose"),
                .product(name: "ReposeTesting", package: "Repose"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ResourceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
