import ArgumentParser
import Foundation
import ParleyBench
import ParleyServer

extension Parley {
    /// `parley bench`: measured performance of Parley's parts.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Measure Parley's performance (build with -c release for real figures).",
            subcommands: [BenchServer.self, BenchPeer.self, BenchClientLatency.self]
        )
    }
}

/// `parley bench server`: authenticated connections sending 1:1 messages at a fixed total rate.
struct BenchServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Load a server with N authenticated connections sending 1:1 or group messages; report deliveries/s and send→notify latency.",
        discussion: """
            Without --servers, an embedded server runs on 127.0.0.1 with SQLite in a temporary directory \
            (durable: every acknowledged message is committed). Connections are put into conversations of \
            --group-size members (2: direct conversations); each sends to its conversation, and latency is \
            from sending send_message to each recipient's new_message notification, so one group message \
            counts one delivery per recipient. With --servers A,B,C (development nodes sharing one \
            database), connection i goes to node i mod 3, so most deliveries cross nodes. Start such nodes with \
            --dev --registrations-per-minute 1000000 --login-timeout 3600, or registering the benchmark's accounts \
            trips the proof-of-work gate.
            """
    )

    @Option(help: "Authenticated connections (paired into conversations).") var connections = 100
    @Option(help: "Total messages per second across all connections.") var rate = 1_000.0
    @Option(help: "Seconds of measured traffic.") var duration = 10.0
    @Option(help: "Seconds of unmeasured warm-up traffic first.") var warmup = 2.0
    @Option(help: "Bytes of ciphertext per envelope.") var size = 256
    @Option(help: "Members per conversation: 2 for direct conversations, more for groups.") var groupSize = 2
    @Option(help: ArgumentHelp(
        "Recipients confirm delivery of what arrived every this many milliseconds, as clients do, so the server deletes delivered ciphertext (0: never, and the database grows).",
        valueName: "ms"))
    var confirmEvery = 0
    @Option(help: ArgumentHelp("Existing development server nodes, HOST:PORT[,HOST:PORT…] (needs --codes).", valueName: "nodes"))
    var servers: String?
    @Option(help: ArgumentHelp("One node, HOST:PORT (the same as --servers with one address).", valueName: "host:port"))
    var server: String?
    @Option(help: ArgumentHelp("The nodes' dev-codes.log files, comma-separated, to confirm the benchmark's accounts.", valueName: "paths"))
    var codes: String?
    @Option(help: ArgumentHelp("A server process to report the memory of (repeat for several nodes).", valueName: "pid"))
    var serverPid: [Int32] = []
    @Option(help: ArgumentHelp("The database's main process (PostgreSQL's postmaster): its and its backends' CPU is reported.", valueName: "pid"))
    var databasePid: Int32?

    var nodeList: [String] {
        (servers ?? server ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func validate() throws {
        guard groupSize >= 2, groupSize <= 100 else { throw ValidationError("--group-size must be 2–100") }
        guard connections >= groupSize, connections.isMultiple(of: groupSize) else {
            throw ValidationError("--connections must be a multiple of --group-size (\(groupSize))")
        }
        guard rate > 0, duration > 0, warmup >= 0, (1...65_536).contains(size) else { throw ValidationError("rate, duration and size must be positive") }
        guard (0...60_000).contains(confirmEvery) else { throw ValidationError("--confirm-every must be 0–60000 ms") }
        if servers != nil, server != nil { throw ValidationError("give --servers or --server, not both") }
        for node in nodeList { _ = try ListenAddress.validated(node) }
        if !nodeList.isEmpty, codes == nil { throw ValidationError("--servers needs --codes PATH[,PATH…] (the nodes' dev-codes.log)") }
    }

    func run() async throws {
        try await ServerLoad(
            connections: connections, rate: rate, duration: duration, warmup: warmup, size: size, groupSize: groupSize,
            confirmEvery: confirmEvery, nodes: try nodeList.map { try ListenAddress.validated($0) }.map { (host: $0.0, port: $0.1) }, codes: codes, serverPid: serverPid, databasePid: databasePid
        ).run()
    }
}
