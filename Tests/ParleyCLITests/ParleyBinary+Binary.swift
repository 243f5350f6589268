import ParleyTestSupport
import Foundation

extension ParleyBinary {
    /// The outcome of a run whose standard input and output are bytes, not text.
    struct BinaryResult {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    /// Runs `parley` (or another of the built programs: `parley-file`) with binary standard input and output
    /// (sealed files, ECIES blobs).
    static func runBinary(
        _ arguments: [String], stdin: Data, environment: [String: String] = [:], program: String = "parley"
    ) throws -> BinaryResult {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // No test reaches the network: Web Key Directory lookups (docs/MAIL.md §6.2) find no host unless a test
        // maps one to its own server.
        env["PARLEY_WKD_ADDRESS"] = ""
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try ProcessLaunch.start(process)
        // Feed stdin on another thread so a large output cannot deadlock against a full input pipe.
        let writer = Thread {
            // The throwing write: a command that refuses before reading its input (and exits) closes the pipe, and
            // the old `write(_:)` turned that EPIPE into a crash of the whole test process (seen in CI, 2026-11-28).
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Drain stderr on its own thread too, so a chatty process cannot block on a full pipe.
        let errBox = ErrorOutput()
        let drain = Thread { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); errBox.done.signal() }
        drain.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errBox.done.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return BinaryResult(
            status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Standard error collected by a draining thread.
private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
    let done = DispatchSemaphore(value: 0)
}
