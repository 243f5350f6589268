// swift-tools-version: 6.1
// Benchmarks for ParleyProtocol and the wire's JSON, kept out of the root package so `swift build` stays lean.
// Run: cd Benchmarks && swift package --disable-sandbox benchmark
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which is wherever the repository was cloned.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

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
                .product(name: "ParleyProtocol", package: root),
                .product(name: "ParleyCrypto", package: root),
            ],
            path: "Benchmarks/ProtocolBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The wire's JSON parser and writer beside Foundation's JSONSerialization, on the lines a server handles most.
        .executableTarget(
            name: "WireBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "ParleyWire", package: root),
            ],
            path: "Benchmarks/WireBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
