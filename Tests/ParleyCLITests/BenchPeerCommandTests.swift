import Foundation
import ParleyTestSupport
import Testing

/// `parley bench peer` against the real Prosody, Mosquitto and NATS that scripts/bench/compare measures Parley beside,
/// each started by scripts/bench/peer-server with the settings the comparison uses: every message the generator sends
/// arrives, so the comparison's figures are about delivered messages.
@Suite("parley bench peer against the real peers", .serialized, .offThePool)
struct BenchPeerCommandTests {
    static let peerServer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/bench/peer-server")

    /// A peer server on a free port, stopped when the test ends.
    final class PeerServer: Sendable {
        let port: Int
        let pid: Int32
        private let process: Process
        private let directory: TemporaryDirectory

        init(_ name: String) async throws {
            directory = try TemporaryDirectory("bench-peer-\(name)")
            port = try LocalPorts.free()
            let process = Process()
            process.executableURL = BenchPeerCommandTests.peerServer
            process.arguments = [name, directory.url.path, String(port)]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try ProcessLaunch.start(process)
            self.process = process
            pid = process.processIdentifier
            for _ in 0..<100 where !LocalPorts.accepts(port) { try await Task.sleep(for: .milliseconds(100)) }
            guard LocalPorts.accepts(port) else {
                process.terminate()
                throw PeerServerDidNotStart(name: name)
            }
        }

        /// Asks the server to stop, then kills it: a child of the test runner may inherit SIGTERM ignored (Prosody
        /// went on running), and `Process.waitUntilExit` spins a core while it waits.
        func stop() {
            process.terminate()
            for _ in 0..<20 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
            if process.isRunning { kill(pid, SIGKILL) }
            for _ in 0..<50 where process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
        }
    }

    struct PeerServerDidNotStart: Error, CustomStringConvertible {
        let name: String
        var description: String { "scripts/bench/peer-server \(name) listened on nothing within 10 s" }
    }

    /// The report's value for `label` (the text after the label's padding).
    static func line(_ label: String, in report: String) -> String? {
        report.split(separator: "\n").first { $0.hasPrefix(label + " ") }.map { $0.dropFirst(label.count).trimmingCharacters(in: .whitespaces) }
    }

    @Test("every message sent through each peer arrives, and the report reads the peer's memory and CPU",
          arguments: [("prosody", "xmpp"), ("mosquitto", "mqtt"), ("nats", "nats"), ("nats-js", "nats-js")])
    func everyMessageArrives(server name: String, dialect: String) async throws {
        let server = try await PeerServer(name)
        defer { server.stop() }
        let result = try ParleyBinary.run([
            "bench", "peer", dialect, "--server", "127.0.0.1:\(server.port)", "--server-pid", String(server.pid),
            "--connections", "6", "--rate", "60", "--duration", "1", "--warmup", "0.5",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = result.stdout
        #expect(Self.line("undelivered", in: report) == "0", "\(report)")
        #expect(Self.line("errors", in: report) == "0", "\(report)")
        let delivered = try #require(Self.line("delivered", in: report), "\(report)")
        // About 60 in the one-second window; none lost, so "N of the N due".
        let counts = delivered.split(separator: "(").last?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(counts.count == 2 && counts[0] == counts[1] && counts[0] >= 40, "\(delivered)")
        #expect(Self.line("server RSS", in: report)?.hasSuffix("MiB") == true, "\(report)")
        #expect(Self.line("server CPU", in: report)?.contains("µs per delivery") == true, "\(report)")
    }

    @Test("a server that speaks another protocol, or none, is a clear error and not a hang")
    func theWrongServerIsAClearError() async throws {
        let nats = try await PeerServer("nats")
        defer { nats.stop() }
        for dialect in ["mqtt", "xmpp"] {
            let started = ContinuousClock.now
            let result = try ParleyBinary.run([
                "bench", "peer", dialect, "--server", "127.0.0.1:\(nats.port)", "--connections", "2", "--rate", "10", "--duration", "1",
            ])
            #expect(result.status != 0, "\(dialect): \(result.stdout)")
            #expect(ContinuousClock.now - started < .seconds(20), "\(dialect) against NATS took \(ContinuousClock.now - started)")
            #expect(!result.stderr.isEmpty, "\(dialect): no word of what went wrong")
        }
        let nothing = try LocalPorts.free()
        let refused = try ParleyBinary.run(["bench", "peer", "nats", "--server", "127.0.0.1:\(nothing)", "--connections", "2"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("cannot connect to 127.0.0.1:\(nothing): nothing is listening there"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("SingleConnectionFailure"), "a library's type names are not words: \(refused.stderr)")
        let parley = try ParleyBinary.run(["bench", "server", "--server", "127.0.0.1:\(nothing)", "--codes", "/dev/null", "--connections", "2"])
        #expect(parley.status != 0 && parley.stderr.contains("nothing is listening there"), "\(parley.stderr)")
        #expect(!parley.stderr.contains("SingleConnectionFailure"), "\(parley.stderr)")
        let odd = try ParleyBinary.run(["bench", "peer", "nats", "--server", "127.0.0.1:\(nats.port)", "--connections", "3"])
        #expect(odd.status != 0 && odd.stderr.contains("even number"), "\(odd.stderr)")
    }
}
