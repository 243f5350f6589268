// swift-tools-version: 6.1
// Parley: an end-to-end encrypted communication suite.
// Targets depend only downward: CLI → chat UI/bench → Client/Server → Wire/Protocol → Crypto (docs/ARCHITECTURE.md).
import PackageDescription

/// How `parley-file` and `parley-sop` link on Linux: the Swift libraries and FoundationEssentials statically (with the
/// two libraries FoundationEssentials needs, which SwiftPM names only for `--static-swift-stdlib` builds), no PIE and
/// no exported symbol table, so the loader relocates and the runtime touches less; lld, because it does not repeat
/// glibc's link-time note about FoundationEssentials' own `mktemp`. docs/PERFORMANCE.md, "A program for files alone".
let leanProgram: [LinkerSetting] = [
    .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
    .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xclang-linker", "-no-pie"], .when(platforms: [.linux])),
]

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ParleyCrypto", targets: ["ParleyCrypto"]),
        .library(name: "ParleyHardwareKeys", targets: ["ParleyHardwareKeys"]),
        .library(name: "ParleyProtocol", targets: ["ParleyProtocol"]),
        .library(name: "ParleyWire", targets: ["ParleyWire"]),
        .library(name: "ParleyServer", targets: ["ParleyServer"]),
        .library(name: "ParleyFiles", targets: ["ParleyFiles"]),
        .library(name: "ParleyClientFormats", targets: ["ParleyClientFormats"]),
        .library(name: "ParleyClient", targets: ["ParleyClient"]),
        .library(name: "ParleyVault", targets: ["ParleyVault"]),
        .library(name: "ParleyPGP", targets: ["ParleyPGP"]),
        .library(name: "ParleyMailFormats", targets: ["ParleyMailFormats"]),
        .library(name: "ParleyMail", targets: ["ParleyMail"]),
        .library(name: "ParleyLocation", targets: ["ParleyLocation"]),
        .library(name: "ParleyQR", targets: ["ParleyQR"]),
        .library(name: "ParleyImage", targets: ["ParleyImage"]),
        .library(name: "ParleyPeerDialects", targets: ["ParleyPeerDialects"]),
        .executable(name: "parley", targets: ["parley"]),
        .executable(name: "parley-file", targets: ["parley-file"]),
        .executable(name: "parley-sop", targets: ["parley-sop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "ParleyCrypto",
            dependencies: [
                "CSodium",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "ParleyProtocol",
            dependencies: [
                "ParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "ParleyWire"),
        .target(
            name: "ParleyServer",
            dependencies: [
                "CParleyMalloc",
                "ParleyCrypto",
                "ParleyWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGHUP reloads the TLS certificate of a running server (HangUpReload).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the write-ahead-log hook GRDB does not wrap (WALCheckpointer).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
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
        .target(
            name: "ParleyVault",
            dependencies: [
                "ParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // libjpeg-turbo and libpng behind a tiny C shim whose error handlers longjmp back instead of exit().
        .target(
            name: "CParleyImage",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        .target(name: "ParleyImage", dependencies: ["CParleyImage"]),
        // The client side of TLS shared by the chat client and `parley mail`: trust roots or a pinned key.
        .target(
            name: "ParleyTLS",
            dependencies: [
                "ParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The bytes one client sends another through the server, with no I/O: envelopes, retry requests, content
        // (docs/CLIENT.md §2–3). Apart from ParleyClient so the fuzzer builds without NIO and GRDB.
        .target(
            name: "ParleyClientFormats",
            dependencies: ["ParleyCrypto", "ParleyLocation", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "ParleyClient",
            dependencies: [
                "ParleyClientFormats",
                "ParleyCrypto",
                "ParleyFiles",
                "ParleyTLS",
                "ParleyImage",
                "ParleyLocation",
                "ParleyProtocol",
                "ParleyWire",
                "ParleyVault",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ParleyLocation",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The network feeds of `parley location`: gpsd over TCP and Berry Picker Tracker over HTTP. Apart from
        // ParleyLocation so that it stays pure and free of FoundationNetworking (libcurl), which ParleyClient
        // and the fuzzer link through it.
        .target(name: "ParleyLocationFeeds", dependencies: ["ParleyLocation"]),
        // `parley server --config FILE`: the YAML configuration file read into settings (Yams stays out of
        // ParleyServer and the fuzzer).
        .target(
            name: "ParleyServerSettings",
            dependencies: [.product(name: "Yams", package: "Yams")]
        ),
        // The system zlib, for OpenPGP compressed data packets (ZIP = raw deflate, ZLIB).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The TPM2 software stack, for keys held in a TPM 2.0 (ParleyHardwareKeys).
        .systemLibrary(name: "CTSS2", path: "Sources/CTSS2", pkgConfig: "tss2-esys", providers: [.apt(["libtss2-dev"])]),
        .target(
            name: "ParleyHardwareKeys",
            dependencies: ["CTSS2", "ParleyCrypto", "ParleyVault", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // libsodium, for the one curve operation swift-crypto lacks: an Ed25519 key's X25519 form.
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // Debian's QR and PNG libraries, for the contact-verification code (encode, draw, read back).
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZBar", path: "Sources/CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .target(name: "ParleyQR", dependencies: ["CQREncode", "CZBar", "CPNG"]),
        // libargon2, for RFC 9580's Argon2 S2K (pass phrases, locked v6 keys).
        .systemLibrary(name: "CArgon2", path: "Sources/CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        // OpenSSL's libcrypto through EVP, for AES-OCB and the AES-CTR and CMAC that EAX is made of (SEIPD v2).
        // On Linux libcrypto is loaded on first use (libcrypto.h says why), elsewhere linked.
        .target(name: "CParleyOpenSSL", linkerSettings: [.linkedLibrary("crypto", .when(platforms: [.macOS, .iOS]))]),
        .target(name: "CParleyMalloc"),
        // libgcrypt (GnuPG's cipher library), for AES-CFB in OpenPGP's SEIPD v1: eight blocks at a time where it can.
        .target(name: "CParleyGcrypt", linkerSettings: [.linkedLibrary("gcrypt")]),
        .target(
            name: "ParleyPGP",
            dependencies: [
                "ParleyCrypto",
                "ParleyFiles",
                "CZlib",
                "CArgon2",
                "CParleyOpenSSL",
                "CParleyGcrypt",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // libetpan (Debian libetpan-dev), the IMAP client MailCore is built on, and helpers over its FETCH results.
        .target(name: "CParleyMail", linkerSettings: [.linkedLibrary("etpan")]),
        // What mail's bytes mean, with no I/O: IMAP responses (through libetpan), Autocrypt headers and receipts,
        // addresses, dates, Web Key Directory locations. Apart from ParleyMail so the fuzzer builds without NIO.
        .target(
            name: "ParleyMailFormats",
            dependencies: ["CParleyMail", "ParleyPGP", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // `parley mail`: an IMAP account's encrypted local store, synced through libetpan over verified TLS (docs/MAIL.md).
        .target(
            name: "ParleyMail",
            dependencies: [
                "CParleyMail",
                "ParleyMailFormats",
                "ParleyCrypto",
                "ParleyPGP",
                "ParleyTLS",
                "ParleyVault",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]
        ),
        // What reaches a terminal: remote text made inert, writes to standard output and error that survive a closed
        // pipe, hidden password prompts, progress lines. FoundationEssentials only, for `parley-file`.
        .target(name: "ParleyTerminal", dependencies: ["ParleyCrypto", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The full-screen chat and the terminal it draws on (raw mode, keys, layout).
        .target(
            name: "ParleyChatUI",
            dependencies: ["ParleyClient", "ParleyHardwareKeys", "ParleyTerminal", "ParleyVault"]
        ),
        // `parley file`'s commands (keygen, seal, open, inspect, wrap, unwrap), shared by `parley` and `parley-file`.
        .target(
            name: "ParleyFileCommands",
            dependencies: [
                "ParleyCrypto",
                "ParleyFiles",
                "ParleyHardwareKeys",
                "ParleyTerminal",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `parley-file`: the file commands as a program of their own, nothing of Foundation, ICU, the server or the
        // chat linked in, so a seal of any size runs in about 15 MiB against `parley file`'s 45 (`leanProgram`).
        .executableTarget(
            name: "parley-file",
            dependencies: ["ParleyFileCommands", "ParleyTerminal", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: leanProgram
        ),
        // `parley sop`'s commands, shared by `parley` and `parley-sop`.
        .target(
            name: "ParleySOPCommands",
            dependencies: ["ParleyPGP", "ParleyTerminal", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `parley-sop`: the Stateless OpenPGP command line as a program of its own, linked as `parley-file` is.
        .executableTarget(
            name: "parley-sop",
            dependencies: ["ParleySOPCommands", "ParleyTerminal", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: leanProgram
        ),
        // `parley demo`: the narrated tour with an embedded server and three people.
        .target(
            name: "ParleyDemo",
            dependencies: [
                "ParleyClient",
                "ParleyCrypto",
                "ParleyServer",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The load generator behind `parley bench`: its own NIO client, the scenarios and their reports.
        // How `parley bench peer` speaks Prosody's, Mosquitto's and NATS's protocols: a dialect per protocol, values
        // with no I/O (the fuzzer reads servers' bytes through them).
        .target(name: "ParleyPeerDialects"),
        .target(
            name: "ParleyBench",
            dependencies: [
                "ParleyClient",
                "ParleyCrypto",
                "ParleyPeerDialects",
                "ParleyServer",
                "ParleyWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The SDK example (docs/SDK.md): its own package in Examples/EchoBot, built here too so the test command
        // compiles it and runs it against a server. Only ParleyClient's public API.
        .executableTarget(name: "ParleyEchoBot", dependencies: ["ParleyClient"], path: "Examples/EchoBot/Sources/EchoBot"),
        .executableTarget(
            name: "parley",
            dependencies: [
                "ParleyCrypto",
                "ParleyServer",
                "ParleyServerSettings",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                "ParleyBench",
                "ParleyChatUI",
                "ParleyDemo",
                "ParleyFileCommands",
                "ParleyFiles",
                "ParleySOPCommands",
                "ParleyHardwareKeys",
                "ParleyPGP",
                "ParleyMail",
                "ParleyMailFormats",
                "ParleyLocation",
                "ParleyLocationFeeds",
                "ParleyQR",
                "ParleyClient",
                "ParleyTerminal",
                "ParleyVault",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "ParleyTestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/ParleyTestSupport"
        ),
        .testTarget(
            name: "ParleyCryptoTests",
            dependencies: ["ParleyCrypto", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyWireTests", dependencies: ["ParleyWire", "ParleyTestSupport"], resources: [.copy("Vectors")]),
        .testTarget(
            name: "ParleyHardwareKeysTests",
            dependencies: ["ParleyHardwareKeys", "ParleyCrypto", "ParleyVault", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyServerTests",
            dependencies: [
                "ParleyServer",
                "ParleyClient",
                "parley",
                "ParleyWire",
                "ParleyLocation",
                "ParleyTestSupport",
                "ParleyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ParleyFilesTests",
            dependencies: ["ParleyFiles", "ParleyCrypto", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyVaultTests",
            dependencies: ["ParleyVault", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyLocationTests",
            dependencies: ["ParleyLocation", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyQRTests", dependencies: ["ParleyQR"]),
        .testTarget(
            name: "ParleyPGPTests",
            dependencies: ["ParleyPGP", "CParleyOpenSSL", "CArgon2", "ParleyTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyProtocolTests",
            dependencies: [
                "ParleyProtocol",
                "ParleyCrypto",
                "ParleyTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyClientTests",
            dependencies: [
                "ParleyClient",
                "ParleyClientFormats",
                "ParleyLocation",
                "ParleyServer",
                "ParleyVault",
                "ParleyWire",
                "ParleyProtocol",
                "ParleyCrypto",
                "ParleyTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyImageTests",
            dependencies: ["ParleyImage", "ParleyTestSupport"],
            resources: [.copy("Vectors")]
        ),
        .testTarget(
            name: "ParleyCLITests",
            dependencies: ["parley", "ParleyChatUI", "ParleyServer", "ParleyImage", "ParleyTerminal", "ParleyTestSupport"]
        ),
        .testTarget(
            name: "ParleyMailTests",
            dependencies: [
                "ParleyMail",
                "ParleyMailFormats",
                "ParleyPGP",
                "ParleyTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            resources: [.copy("Vectors")]
        ),
        .testTarget(name: "ParleyChatUITests", dependencies: ["ParleyChatUI", "ParleyClient", "ParleyTerminal"]),
        .testTarget(name: "ParleyTerminalTests", dependencies: ["ParleyTerminal"]),
        .testTarget(name: "ParleyLocationFeedsTests", dependencies: ["ParleyLocationFeeds", "ParleyLocation", "ParleyTestSupport"]),
        .testTarget(name: "ParleyServerSettingsTests", dependencies: ["ParleyServerSettings"]),
        .testTarget(name: "ParleyPeerDialectsTests", dependencies: ["ParleyPeerDialects"]),
    ],
    swiftLanguageModes: [.v6]
)
