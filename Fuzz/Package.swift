// swift-tools-version: 6.1
// Coverage-guided fuzzing of every Parley decoder, kept out of the root package so `swift build` stays lean.
// Build: scripts/fuzz builds this with `-sanitize=fuzzer,address`; one executable, target chosen at start.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which is wherever the repository was cloned.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ParleyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // libFuzzer's driver entry point (see Sources/CLibFuzzer/shim.h).
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .executableTarget(
            name: "ParleyFuzz",
            dependencies: [
                "CLibFuzzer",
                .product(name: "ParleyCrypto", package: root),
                .product(name: "ParleyProtocol", package: root),
                .product(name: "ParleyWire", package: root),
                .product(name: "ParleyFiles", package: root),
                .product(name: "ParleyClientFormats", package: root),
                .product(name: "ParleyVault", package: root),
                .product(name: "ParleyPGP", package: root),
                .product(name: "ParleyMailFormats", package: root),
                .product(name: "ParleyLocation", package: root),
                .product(name: "ParleyQR", package: root),
                .product(name: "ParleyImage", package: root),
                .product(name: "ParleyPeerDialects", package: root),
            ],
            path: "Sources/ParleyFuzz"
        )
    ],
    swiftLanguageModes: [.v6]
)
