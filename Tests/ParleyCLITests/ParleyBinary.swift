import Foundation
import ParleyTestSupport

/// Runs the built `parley` executable the way a user would and captures what it prints.
enum ParleyBinary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The directory that holds the built products (next to the test bundle).
    static var productsDirectory: URL {
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
        if let bundle { return bundle.bundleURL.deletingLastPathComponent() }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// Runs `parley` (or `program`) with `arguments`, feeding `stdin` as text, and waits for it to exit.
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], program: String = "parley"
    ) throws -> Result {
        PoolWatch.start()
        let result = try runBinary(arguments, stdin: Data((stdin ?? "").utf8), environment: environment, program: program)
        return Result(status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: result.stderr)
    }
}

extension ParleyBinary {
    /// `run` on a thread of its own (`Blocking`; a dispatch queue would share the pool's threads): a test that hosts a server in this process must not block one of
    /// the two cooperative threads of a 2-core machine while the binary talks to that server.
    static func runDetached(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) async throws -> Result {
        try await Blocking.run { try run(arguments, stdin: stdin, environment: environment) }
    }
}

extension ParleyBinary.Result: @unchecked Sendable {}
