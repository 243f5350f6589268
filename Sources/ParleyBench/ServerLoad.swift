import Foundation
import NIOCore

/// `parley bench server`'s run: sets up the accounts and connections, sends at the fixed rate, waits for the
/// last deliveries and prints the report. The command line parses and checks the settings; this measures.
public struct ServerLoad: Sendable {
    /// Authenticated connections (put into conversations of `groupSize`).
    public var connections: Int
    /// Total messages per second across all connections.
    public var rate: Double
    /// Seconds of measured traffic.
    public var duration: Double
    /// Seconds of unmeasured warm-up traffic first.
    public var warmup: Double
    /// Bytes of ciphertext per envelope.
    public var size: Int
    /// Members per conversation (2: direct conversations).
    public var groupSize: Int
    /// Milliseconds between delivery confirmations (0: never).
    public var confirmEvery: Int
    /// Existing server nodes; empty for an embedded server.
    public var nodes: [(host: String, port: Int)]
    /// The nodes' dev-codes.log files, comma-separated.
    public var codes: String?
    /// Server processes to report the memory and CPU of.
    public var serverPid: [Int32]
    /// The database's main process, to report its CPU.
    public var databasePid: Int32?

    /// A run with these settings (already checked by the command line).
    public init(
        connections: Int, rate: Double, duration: Double, warmup: Double, size: Int, groupSize: Int,
        confirmEvery: Int, nodes: [(host: String, port: Int)], codes: String?, serverPid: [Int32], databasePid: Int32?
    ) {
        self.connections = connections
        self.rate = rate
        self.duration = duration
        self.warmup = warmup
        self.size = size
        self.groupSize = groupSize
        self.confirmEvery = confirmEvery
        self.nodes = nodes
        self.codes = codes
        self.serverPid = serverPid
        self.databasePid = databasePid
    }

    /// Runs the load and prints the report to standard output.
    public func run() async throws {
        let codeFiles = (codes ?? "").split(separator: ",").map(String.init)
        let target = try await BenchTarget.start(servers: nodes, codes: codeFiles, serverPIDs: serverPid)
        let recorder = LatencyRecorder()
        let idle = target.residentMemory()
        print("setting up \(connections) accounts and connections on \(target.nodes.count) node(s)…")
        let clients = try await BenchSetup.accounts(
            count: connections, groupSize: groupSize, target: target, recorder: recorder, confirming: confirmEvery > 0)
        let loaded = target.residentMemory()
        print("sending \(Int(rate)) messages/s for \(warmup) s warm-up + \(duration) s measured, \(size)-byte envelopes, \(groupSize - 1) recipient(s) each")
        let interval = TimeAmount.nanoseconds(Int64(Double(connections) / rate * 1e9))
        let payload = Data((0..<size).map { UInt8($0 & 0xFF) }).base64EncodedString()
        let databasePid = self.databasePid
        let window = LoadWindow(
            recorder: recorder, warmup: warmup, duration: duration, serverCPU: { target.serverCPUSeconds() },
            databaseCPU: { databasePid.flatMap(BenchTarget.cpuSecondsWithChildren) })
        // Senders keep to the schedule whatever the server does; when it falls behind, deliveries go on after the
        // senders stop, and the rate is over that longer window.
        let measured = try await window.measure { start, end in
            for (index, client) in clients.enumerated() {
                // Spread the connections' first sends over one interval so they do not fire together.
                let offset = TimeAmount.nanoseconds(interval.nanoseconds * Int64(index) / Int64(clients.count))
                client.sendPeriodically(first: start + offset, interval: interval, end: end, payload: payload, recorder: recorder)
                if confirmEvery > 0 {
                    let every = TimeAmount.milliseconds(Int64(confirmEvery))
                    let spread = TimeAmount.nanoseconds(every.nanoseconds * Int64(index) / Int64(clients.count))
                    client.confirmations.confirmPeriodically(on: client.connection, first: start + spread, interval: every)
                }
            }
        }
        clients.forEach { $0.confirmations.stop() }
        let confirmed = clients.reduce((confirmed: 0, failed: 0)) { sum, client in
            let totals = client.confirmations.totals
            return (sum.confirmed + totals.confirmed, sum.failed + totals.failed)
        }
        var perConnection = "n/a"
        if let idle, let loaded { perConnection = "\(max(0, loaded - idle) / connections / 1024) KiB" }
        print("""
            nodes                \(target.nodes.count)
            connections          \(connections)
            offered              \(Int(rate)) msg/s × \(groupSize - 1) recipient(s) = \(Int(rate) * (groupSize - 1)) deliveries/s
            \(measured.deliveryLines)
            confirmed            \(confirmEvery > 0 ? "\(confirmed.confirmed) deliveries, every \(confirmEvery) ms (\(confirmed.failed) requests failed)" : "none (recipients do not confirm; give --confirm-every)")
            server RSS           \(target.residentMemory().map { "\($0 >> 20) MiB" } ?? "n/a (give --server-pid)")\(target.embedded != nil ? " (with the load generator)" : "")
            RSS per connection   \(perConnection) (growth from setting up the connections)
            server CPU           \(measured.cpu(measured.serverCPU, "n/a (give --server-pid)"))
            database CPU         \(measured.cpu(measured.databaseCPU, "n/a (give --database-pid)"))
            this process's CPU   \(measured.cpu(measured.generatorCPU, "n/a"))\(target.embedded != nil ? " (the load generator and the embedded server)" : " (the load generator)")
            """)
        clients.forEach { $0.connection.close() }
        try await target.stop()
    }
}
