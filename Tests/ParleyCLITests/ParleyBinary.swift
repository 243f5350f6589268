import Foundation

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

    /// Runs `parley` with `arguments`, feeding `stdin`, and waits for it to exit.
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("parley")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
