import Foundation
import ParleyTestSupport
import Synchronization

/// A TLS connection made by the real `openssl s_client`, held open while a test writes request lines into it
/// and reads the answers: an independent client that stays on one connection, whatever the server does.
final class OpenSSLClient: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = ReceivedLines()

    /// Connects to 127.0.0.1:`port`, trusting only `trusting` (a PEM file), and refusing an unverified peer.
    init(port: Int, trusting: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", trusting, "-verify_return_error", "-quiet"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        self.process = process
        self.input = stdin.fileHandleForWriting
        let lines = self.lines
        Thread {
            var pending = Data()
            PipeRead.chunks(stdout.fileHandleForReading) { chunk in
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lines.append(line)
                }
            }
        }.start()
    }

    /// Sends `ping` with `id` and waits for its answer; nil if none comes within `seconds` (the connection is gone).
    func ping(_ id: String, seconds: Double = 30) async throws -> String? {
        // A closed connection is an answer (nil), not a trap: FileHandle.write(_: Data) traps on EPIPE.
        guard (try? input.write(contentsOf: Data("{\"type\":\"ping\",\"request_id\":\"\(id)\"}\n".utf8))) != nil else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lines.first(containing: "\"\(id)\"") { return line }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Whether a fresh TLS handshake with 127.0.0.1:`port` verifies against `trusting` alone.
    static func handshakeVerifies(port: Int, trusting: String) async -> Bool {
        // On a thread of its own: a dispatch queue would share the cooperative pool's threads (see `Blocking`).
        (try? await Blocking.run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", trusting, "-verify_return_error", "-brief"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? ProcessLaunch.start(process)) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }) ?? false
    }

    func close() {
        try? input.close()
        if process.isRunning { process.terminate() }
    }
}

/// The lines a client has received, appended by its reading thread.
private final class ReceivedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func first(containing text: String) -> String? { lines.withLock { $0.first { $0.contains(text) } } }
}
