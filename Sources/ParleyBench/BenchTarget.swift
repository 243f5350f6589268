import Foundation
import ParleyServer

/// The server under load: an embedded one with its own temporary data, or external nodes (one or
/// several sharing a database), with the dev-codes logs that confirm the benchmark's accounts.
struct BenchTarget: Sendable {
    /// Where connection `i` goes: node `i % nodes.count`.
    let nodes: [(host: String, port: Int)]
    let codesFiles: [URL]
    let embedded: EmbeddedServer?
    /// Processes whose resident memory is the server's (`--server-pid`); empty for the embedded server.
    let serverPIDs: [Int32]

    static func start(servers nodes: [(host: String, port: Int)], codes: [String], serverPIDs: [Int32]) async throws -> BenchTarget {
        if !nodes.isEmpty {
            return BenchTarget(nodes: nodes, codesFiles: codes.map { URL(fileURLWithPath: $0) }, embedded: nil, serverPIDs: serverPIDs)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID().uuidString)")
        let embedded = try await EmbeddedServer.start(dataDirectory: directory) { configuration in
            // The benchmark registers many accounts and sends fast on purpose.
            configuration.registrationSurgeThreshold = .max
            configuration.requestsPerSecond = 1_000_000
            configuration.accountRequestsPerSecond = 1_000_000
            configuration.loginTimeoutSeconds = 3_600
            // Every generated connection comes from 127.0.0.1, and they all connect before any logs in.
            configuration.limits.maximumConnections = 1_000_000
            configuration.limits.maximumConnectionsPerAddress = 1_000_000
            configuration.limits.maximumUnauthenticatedConnections = 1_000_000
        }
        return BenchTarget(
            nodes: [("127.0.0.1", embedded.port)], codesFiles: [directory.appendingPathComponent("dev-codes.log")],
            embedded: embedded, serverPIDs: [])
    }

    /// Where connection `index` connects.
    func node(for index: Int) -> (host: String, port: Int) { nodes[index % nodes.count] }

    /// Resident memory of the server: the `--server-pid` processes together, or, for the embedded
    /// server, this whole process (server and load generator together); nil when unknown.
    func residentMemory() -> Int? {
        if embedded != nil { return Self.residentMemory(of: "self") }
        guard !serverPIDs.isEmpty else { return nil }
        let sizes = serverPIDs.compactMap { Self.residentMemory(of: "\($0)") }
        return sizes.count == serverPIDs.count ? sizes.reduce(0, +) : nil
    }

    /// CPU seconds (user + system) the `--server-pid` processes have used so far; nil without them.
    func serverCPUSeconds() -> Double? {
        guard embedded == nil, !serverPIDs.isEmpty else { return nil }
        let times = serverPIDs.compactMap(Self.cpuSeconds)
        return times.count == serverPIDs.count ? times.reduce(0, +) : nil
    }

    /// CPU seconds this process (the load generator, and an embedded server) has used so far.
    static func ownCPUSeconds() -> Double? { cpuSeconds(getpid()) }

    /// CPU seconds used so far by process `pid` and its live children (a PostgreSQL postmaster and its backends).
    static func cpuSecondsWithChildren(of pid: Int32) -> Double? {
        guard let own = cpuSeconds(pid) else { return nil }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { child in
            guard let status = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("PPid:") })
            else { return false }
            return line.split(separator: "\t").last.map { Int32($0.trimmingCharacters(in: .whitespaces)) } == pid
        }
        return own + children.compactMap(cpuSeconds).reduce(0, +)
    }

    /// CPU seconds (user + system) process `pid` has used: /proc/PID/stat fields 14 and 15, in clock ticks.
    private static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func residentMemory(of process: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb * 1024
    }

    func code(for email: String) -> String? {
        if let embedded { return embedded.latestCode(for: email) }
        for file in codesFiles {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").last(where: { $0.hasPrefix("\(email) ") }) {
                return String(line.split(separator: " ")[1])
            }
        }
        return nil
    }

    func stop() async throws {
        guard let embedded else { return }
        try await embedded.stop()
        try? FileManager.default.removeItem(at: embedded.dataDirectory)
    }
}
