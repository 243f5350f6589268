import Foundation
import NIOCore
import ParleyPeerDialects

/// `parley bench peer`'s run: the same open-loop load as `parley bench server` (connections in 1:1 pairs, a fixed
/// total rate, a warm-up, then a measured window), against another messaging server, so that Parley's figures have
/// a peer measured the same way in the same run (scripts/bench/compare, docs/PERFORMANCE.md).
public struct PeerLoad: Sendable {
    /// The peer servers the benchmark speaks to.
    public enum Peer: String, CaseIterable, Sendable {
        /// Prosody (XMPP), anonymous logins on `--domain`.
        case xmpp
        /// Mosquitto (MQTT 3.1.1, QoS 1).
        case mqtt
        /// NATS, core publish/subscribe: nothing stored.
        case nats
        /// NATS JetStream: one file-backed stream, acknowledged publications, push consumers.
        case natsJetStream = "nats-js"
    }

    public var peer: Peer
    public var host: String
    public var port: Int
    /// Connections, paired 1:1 (an even number).
    public var connections: Int
    /// Total messages per second across all connections.
    public var rate: Double
    public var duration: Double
    public var warmup: Double
    /// Bytes of payload per message.
    public var size: Int
    /// The server's process, to report its memory and CPU.
    public var serverPid: Int32?
    /// The XMPP domain.
    public var domain: String

    public init(
        peer: Peer, host: String, port: Int, connections: Int, rate: Double, duration: Double, warmup: Double, size: Int,
        serverPid: Int32?, domain: String
    ) {
        self.peer = peer
        self.host = host
        self.port = port
        self.connections = connections
        self.rate = rate
        self.duration = duration
        self.warmup = warmup
        self.size = size
        self.serverPid = serverPid
        self.domain = domain
    }

    /// Runs the load and prints the report to standard output, in `parley bench server`'s words.
    public func run() async throws {
        let recorder = LatencyRecorder()
        let server = serverPid
        let memory = { server.flatMap { BenchTarget.residentMemory(of: "\($0)") } }
        let idle = memory()
        print("connecting \(connections) \(peer.rawValue) clients to \(host):\(port)…")
        var peers: [PeerConnection] = []
        for index in 0..<connections {
            peers.append(try await PeerConnection.connect(host: host, port: port, dialect: dialect(index), recorder: recorder))
        }
        let loaded = memory()
        print("sending \(Int(rate)) messages/s for \(warmup) s warm-up + \(duration) s measured, \(size)-byte payloads, 1 recipient each")
        let interval = TimeAmount.nanoseconds(Int64(Double(connections) / rate * 1e9))
        let window = LoadWindow(
            recorder: recorder, warmup: warmup, duration: duration,
            serverCPU: { server.flatMap(BenchTarget.cpuSecondsWithChildren) }, databaseCPU: { nil })
        let (senders, size) = (peers, size)
        let measured = try await window.measure { start, end in
            for (index, connection) in senders.enumerated() {
                let offset = TimeAmount.nanoseconds(interval.nanoseconds * Int64(index) / Int64(senders.count))
                connection.sendPeriodically(
                    first: start + offset, interval: interval, end: end, to: senders[index ^ 1].address, size: size,
                    base: index * 100_000_000)
            }
        }
        var perConnection = "n/a"
        if let idle, let loaded { perConnection = "\(max(0, loaded - idle) / connections / 1024) KiB" }
        print("""
            peer                 \(peer.rawValue)
            connections          \(connections)
            offered              \(Int(rate)) msg/s × 1 recipient(s) = \(Int(rate)) deliveries/s
            \(measured.deliveryLines)
            server RSS           \(memory().map { "\($0 >> 20) MiB" } ?? "n/a (give --server-pid)")
            RSS per connection   \(perConnection) (growth from setting up the connections)
            server CPU           \(measured.cpu(measured.serverCPU, "n/a (give --server-pid)"))
            this process's CPU   \(measured.cpu(measured.generatorCPU, "n/a")) (the load generator)
            """)
        peers.forEach { $0.close() }
    }

    private func dialect(_ index: Int) -> any PeerDialect {
        switch peer {
        case .xmpp: XMPPDialect(domain: domain)
        case .mqtt: MQTTDialect(index: index)
        case .nats: NATSDialect(index: index, jetStream: false)
        case .natsJetStream: NATSDialect(index: index, jetStream: true)
        }
    }
}
