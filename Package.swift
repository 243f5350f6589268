// swift-tools-version: 6.1
// Parley: an end-to-end encrypted communication suite.
// Targets depend only downward: CLI → Client/Server → Wire/Protocol → Crypto.
import PackageDescription

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ParleyCrypto", targets: ["ParleyCrypto"]),
        .library(name: "ParleyFiles", targets: ["ParleyFiles"]),
        .executable(name: "parley", targets: ["parley"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "ParleyCrypto",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "ParleyFiles",
            dependencies: [
                "ParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "parley",
            dependencies: [
                "ParleyCrypto",
                "ParleyFiles",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ParleyCryptoTests",
            dependencies: ["ParleyCrypto", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyFilesTests",
            dependencies: ["ParleyFiles", "ParleyCrypto", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyCLITests",
            dependencies: ["parley"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
