import ArgumentParser
import Crypto
import Foundation
import Logging
import ParleyCrypto
import ParleyServer
import ParleyWire
import ServiceLifecycle

extension Parley {
    /// `parley bench`: measured performance of Parley's parts.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure Parley's performance (build with -c release for real figures).",
            subcommands: [BenchServer.self, BenchClientLatency.self]
        )
    }
}

/// `parley bench server`: authenticated connections sending 1:1 messages at a fixed total rate.
struct BenchServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Load a server with N authenticated connections sending 1:1 messages; report delivered/s and send→notify latency.",
        discussion: """
            Without --server, an embedded server runs on 127.0.0.1 with SQLite in a temporary directory \
            (durable: every acknowledged message is committed). Connections are paired into direct \
            conversations; each sends to its partner, and latency is from sending send_message to the \
            partner's new_message notification.
            """
    )

    @Option(help: "Authenticated connections (paired into conversations).") var connections = 100
    @Option(help: "Total messages per second across all connections.") var rate = 1_000.0
    @Option(help: "Seconds of measured traffic.") var duration = 10.0
    @Option(help: "Seconds of unmeasured warm-up traffic first.") var warmup = 2.0
    @Option(help: "Bytes of ciphertext per envelope.") var size = 256
    @Option(help: "An existing development server, HOST:PORT (needs --codes).") var server: String?
    @Option(help: "That server's dev-codes.log, to confirm the benchmark's accounts.") var codes: String?

    func validate() throws {
        guard connections >= 2, connections.isMultiple(of: 2) else { throw ValidationError("--connections must be an even number ≥ 2") }
        guard rate > 0, duration > 0, warmup >= 0, (1...65_536).contains(size) else { throw ValidationError("rate, duration and size must be positive") }
        if server != nil, codes == nil { throw ValidationError("--server needs --codes PATH (the server's dev-codes.log)") }
    }

    func run() async throws {
        let target = try await BenchTarget.start(server: server, codes: codes)
        let recorder = LatencyRecorder()
        print("setting up \(connections) accounts and connections…")
        let clients = try await BenchSetup.accounts(count: connections, target: target, recorder: recorder)
        print("sending \(Int(rate)) messages/s for \(warmup) s warm-up + \(duration) s measured, \(size)-byte envelopes")
        let interval = Double(connections) / rate
        let start = LatencyRecorder.now()
        let warmEnd = start + UInt64(warmup * 1e9)
        let end = warmEnd + UInt64(duration * 1e9)
        let payload = Data((0..<size).map { UInt8($0 & 0xFF) }).base64EncodedString()
        Task {
            try await Task.sleep(for: .seconds(warmup))
            recorder.setRecording(true)
        }
        await withTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    // Spread the connections' first sends over one interval so they do not fire together.
                    var next = start + UInt64(interval * 1e9 * Double(index) / Double(clients.count))
                    var sequence = 0
                    while next < end {
                        let now = LatencyRecorder.now()
                        if next > now { try? await Task.sleep(nanoseconds: next - now) }
                        sequence += 1
                        await client.send(sequence: sequence, payload: payload, recorder: recorder)
                        next += UInt64(interval * 1e9)
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(500))  // let the last notifications arrive
        recorder.setRecording(false)
        let (latencies, errors) = recorder.results()
        let delivered = Double(latencies.count) / duration
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        print("""
            connections          \(connections)
            offered              \(Int(rate)) msg/s
            delivered            \(String(format: "%.0f", delivered)) msg/s (\(latencies.count) in \(duration) s)
            latency p50          \(ms(latencies.quantile(0.50)))
            latency p99          \(ms(latencies.quantile(0.99)))
            latency p999         \(ms(latencies.quantile(0.999)))
            latency max          \(ms(latencies.last ?? .nan))
            errors               \(errors)
            server RSS           \(target.residentMemory().map { "\($0 >> 20) MiB" } ?? "n/a (external server)")
            """)
        clients.forEach { $0.connection.close() }
        try await target.stop()
    }
}
