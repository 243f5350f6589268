import ArgumentParser
import Crypto
import Foundation
import Logging
import NIOCore
import ParleyCrypto
import ParleyServer
import ParleyWire
import ServiceLifecycle
import Synchronization

extension Parley {
    /// `parley bench`: measured performance of Parley's parts.
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Measure Parley's performance (build with -c release for real figures).",
            subcommands: [BenchServer.self, BenchClientLatency.self]
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
        for node in nodeList { _ = try ListenAddress.parse(node) }
        if !nodeList.isEmpty, codes == nil { throw ValidationError("--servers needs --codes PATH[,PATH…] (the nodes' dev-codes.log)") }
    }

    func run() async throws {
        let codeFiles = (codes ?? "").split(separator: ",").map(String.init)
        let target = try await BenchTarget.start(servers: nodeList, codes: codeFiles, serverPIDs: serverPid)
        let recorder = LatencyRecorder()
        let idle = target.residentMemory()
        print("setting up \(connections) accounts and connections on \(target.nodes.count) node(s)…")
        let clients = try await BenchSetup.accounts(
            count: connections, groupSize: groupSize, target: target, recorder: recorder, confirming: confirmEvery > 0)
        let loaded = target.residentMemory()
        print("sending \(Int(rate)) messages/s for \(warmup) s warm-up + \(duration) s measured, \(size)-byte envelopes, \(groupSize - 1) recipient(s) each")
        let interval = TimeAmount.nanoseconds(Int64(Double(connections) / rate * 1e9))
        let start = NIODeadline.now()
        let end = start + .nanoseconds(Int64((warmup + duration) * 1e9))
        let payload = Data((0..<size).map { UInt8($0 & 0xFF) }).base64EncodedString()
        // The measured window runs from the end of the warm-up to the last delivery (or the end of sending,
        // if later): when the server falls behind, deliveries go on after the senders stop, and the rate
        // is over that longer window. Senders keep to the schedule whatever the server does.
        let cpuAtStart = Mutex<(server: Double?, database: Double?, generator: Double?, at: UInt64)>((nil, nil, nil, 0))
        let databasePid = self.databasePid
        Task {
            try await Task.sleep(for: .seconds(warmup))
            recorder.setRecording(true)
            let database = databasePid.flatMap(BenchTarget.cpuSecondsWithChildren)
            cpuAtStart.withLock { $0 = (target.serverCPUSeconds(), database, BenchTarget.ownCPUSeconds(), LatencyRecorder.now()) }
        }
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
        try await Task.sleep(for: .nanoseconds((end - NIODeadline.now()).nanoseconds))
        let sendingEnded = LatencyRecorder.now()
        // Wait for the last deliveries: until none is due, or nothing arrived for a second (lost ones), 30 s at most.
        while LatencyRecorder.now() - sendingEnded < 30_000_000_000 {
            try await Task.sleep(for: .milliseconds(100))
            let (last, awaiting) = recorder.progress()
            if awaiting == 0 || LatencyRecorder.now() - max(last, sendingEnded) > 1_000_000_000 { break }
        }
        recorder.setRecording(false)
        clients.forEach { $0.confirmations.stop() }
        let cpuStart = cpuAtStart.withLock { $0 }
        let window = Double(max(recorder.progress().lastDelivery, sendingEnded) - cpuStart.at) / 1e9
        let cpuUsed = zip2(cpuStart.server, target.serverCPUSeconds()).map { $1 - $0 }
        let generatorUsed = zip2(cpuStart.generator, BenchTarget.ownCPUSeconds()).map { $1 - $0 }
        let databaseUsed = zip2(cpuStart.database, databasePid.flatMap(BenchTarget.cpuSecondsWithChildren)).map { $1 - $0 }
        func cpu(_ seconds: Double?, _ missing: String) -> String {
            seconds.map {
                String(format: "%.2f s in %.1f s = %.0f%% of a core, %.0f µs per delivery",
                       $0, window, 100 * $0 / window, 1e6 * $0 / max(1, Double(recorder.results().latencies.count)))
            } ?? missing
        }
        let (latencies, errors, due, undelivered, unanswered) = recorder.results()
        let confirmed = clients.reduce((confirmed: 0, failed: 0)) { sum, client in
            let totals = client.confirmations.totals
            return (sum.confirmed + totals.confirmed, sum.failed + totals.failed)
        }
        let delivered = Double(latencies.count) / window
        func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
        var perConnection = "n/a"
        if let idle, let loaded { perConnection = "\(max(0, loaded - idle) / connections / 1024) KiB" }
        print("""
            nodes                \(target.nodes.count)
            connections          \(connections)
            offered              \(Int(rate)) msg/s × \(groupSize - 1) recipient(s) = \(Int(rate) * (groupSize - 1)) deliveries/s
            delivered            \(String(format: "%.0f", delivered)) deliveries/s (\(latencies.count) of the \(due) due from the window's acknowledged sends, in \(String(format: "%.1f", window)) s)
            undelivered          \(undelivered)\(unanswered > 0 ? " (and \(unanswered) sends never answered)" : "")
            latency p50          \(ms(latencies.quantile(0.50)))
            latency p99          \(ms(latencies.quantile(0.99)))
            latency p999         \(ms(latencies.quantile(0.999)))
            latency max          \(ms(latencies.last ?? .nan))
            errors               \(errors.values.reduce(0, +))\(errors.isEmpty ? "" : " (" + errors.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")")
            confirmed            \(confirmEvery > 0 ? "\(confirmed.confirmed) deliveries, every \(confirmEvery) ms (\(confirmed.failed) requests failed)" : "none (recipients do not confirm; give --confirm-every)")
            server RSS           \(target.residentMemory().map { "\($0 >> 20) MiB" } ?? "n/a (give --server-pid)")\(target.embedded != nil ? " (with the load generator)" : "")
            RSS per connection   \(perConnection) (growth from setting up the connections)
            server CPU           \(cpu(cpuUsed, "n/a (give --server-pid)"))
            database CPU         \(cpu(databaseUsed, "n/a (give --database-pid)"))
            this process's CPU   \(cpu(generatorUsed, "n/a"))\(target.embedded != nil ? " (the load generator and the embedded server)" : " (the load generator)")
            """)
        clients.forEach { $0.connection.close() }
        try await target.stop()
    }
}

/// Both values, when both are there.
private func zip2<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
