// swift-tools-version: 6.1
// Benchmarks for ParleyProtocol, kept out of the root package so `swift build` stays lean.
// Run: cd Benchmarks && swift package --disable-sandbox benchmark
import PackageDescription

let package = Package(
    name: "ParleyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ProtocolBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ParleyProtocol", package: "wt-protocol"),
                .product(name: "ParleyCrypto", package: "wt-protocol"),
            ],
            path: "Benchmarks/ProtocolBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ]
)
