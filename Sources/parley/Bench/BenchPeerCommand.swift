import ArgumentParser
import ParleyBench
import ParleyServer

extension PeerLoad.Peer: ExpressibleByArgument {}

/// `parley bench peer`: the same load as `bench server`, against Prosody, Mosquitto or NATS.
struct BenchPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Load another messaging server (Prosody, Mosquitto, NATS) exactly as 'bench server' loads Parley, to compare.",
        discussion: """
            Connections are paired 1:1 and send at a fixed total rate (an open loop), after a warm-up; latency is from \
            the send to the partner's receipt. xmpp: anonymous logins on --domain, chat messages to full JIDs (nothing \
            acknowledged). mqtt: QoS 1, acknowledged by the broker's PUBACK. nats: core subjects, nothing stored or \
            acknowledged. nats-js: one JetStream stream in files, acknowledged publications, a push consumer per \
            connection. scripts/bench/compare starts each server pinned to one core and runs this beside it.
            """
    )

    @Argument(help: "The server's protocol: xmpp, mqtt, nats or nats-js.") var peer: PeerLoad.Peer
    @Option(help: ArgumentHelp("The server, HOST:PORT.", valueName: "host:port")) var server: String
    @Option(help: "Connections (paired 1:1: an even number).") var connections = 100
    @Option(help: "Total messages per second across all connections.") var rate = 1_000.0
    @Option(help: "Seconds of measured traffic.") var duration = 10.0
    @Option(help: "Seconds of unmeasured warm-up traffic first.") var warmup = 2.0
    @Option(help: "Bytes of payload per message.") var size = 256
    @Option(help: ArgumentHelp("The server's process, to report its memory and CPU.", valueName: "pid")) var serverPid: Int32?
    @Option(help: "The XMPP domain (xmpp only).") var domain = "bench.localhost"

    func validate() throws {
        guard connections >= 2, connections.isMultiple(of: 2) else { throw ValidationError("--connections must be an even number, 2 or more") }
        guard rate > 0, duration > 0, warmup >= 0, (16...65_536).contains(size) else {
            throw ValidationError("rate and duration must be positive, and --size 16–65536")
        }
        _ = try ListenAddress.validated(server)
    }

    func run() async throws {
        let (host, port) = try ListenAddress.validated(server)
        try await PeerLoad(
            peer: peer, host: host, port: port, connections: connections, rate: rate, duration: duration, warmup: warmup,
            size: size, serverPid: serverPid, domain: domain
        ).run()
    }
}
