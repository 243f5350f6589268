// swift-tools-version: 6.1
// A bot built on Parley's client SDK (docs/SDK.md), as a package of your own would depend on Parley.
// Build: swift build --package-path Examples/EchoBot (Parley's root package builds the same sources as
// `ParleyEchoBot`, so the test command compiles and runs it).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory, which is wherever the repository was cloned.
let parley = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "EchoBot",
    platforms: [.macOS(.v15)],
    dependencies: [
        // From your own package: .package(url: "https://…/parley.git", from: "…")
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(name: "EchoBot", dependencies: [.product(name: "ParleyClient", package: parley)]),
    ],
    swiftLanguageModes: [.v6]
)
