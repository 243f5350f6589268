import ParleyTestSupport
import Foundation
import Synchronization

/// A `parley` process that keeps running while the test reads what it has printed so far
/// (for commands that wait, like `account pair`).
final class LiveProcess: Sendable {
    private let process: Process
    private let output = OutputBuffer()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `executable` (a product of this package: `parley` unless told) with `arguments`. With `killWhenPrinted`,
    /// the reader thread kills it (SIGKILL) the moment its output contains that text — at once, not after a test's
    /// polling, which can lag by seconds when the machine is busy.
    init(_ arguments: [String], environment: [String: String] = [:], executable: String = "parley",
         killWhenPrinted trigger: String? = nil) throws {
        let process = Process()
        process.executableURL = ParleyBinary.productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        try ProcessLaunch.start(process)
        let output = self.output, finished = self.finished
        // Read on a plain thread: never block the cooperative pool.
        let pid = process.processIdentifier
        Thread {
            PipeRead.chunks(pipe.fileHandleForReading) { chunk in
                output.append(chunk)
                if let trigger, output.text.contains(trigger) { _ = Foundation.kill(pid, SIGKILL) }
            }
            finished.signal()
        }.start()
    }

    /// Everything printed so far (standard output and error).
    var text: String { output.text }

    /// Waits until the output contains a match for `pattern`, and returns the match.
    func waitFor(_ pattern: String, seconds: Double = 60) async throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let ended = !process.isRunning
            if ended { try await Task.sleep(for: .milliseconds(100)) }  // the reader's last chunk
            let text = self.text
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range, in: text)
            {
                return String(text[range])
            }
            if ended { throw LiveProcessTimeout(pattern: pattern, output: text + "\n(the process has exited)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LiveProcessTimeout(pattern: pattern, output: text)
    }

    /// Sends `signal` (SIGHUP, SIGTERM, …) to the process.
    func send(_ signal: Int32) {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, signal) }
    }

    /// Ends the process at once (SIGKILL: a child may inherit a blocked SIGTERM).
    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the process to exit and returns its status.
    func exitStatus() async -> Int32 {
        let process = self.process, finished = self.finished
        // On a thread of its own: a dispatch queue would share the cooperative pool's threads (see `Blocking`).
        return (try? await Blocking.run {
            finished.wait()
            process.waitUntilExit()
            return process.terminationStatus
        }) ?? -1
    }
}

struct LiveProcessTimeout: Error, CustomStringConvertible {
    let pattern: String, output: String
    var description: String { "timed out waiting for /\(pattern)/; output so far:\n\(output)" }
}

/// What the process printed, appended by the reading thread and read by the test.
private final class OutputBuffer: Sendable {
    private let data = Mutex<Data>(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}
