import Foundation
import Logging
import ParleyCrypto
import ParleyServer
import ServiceLifecycle

/// The server under load: an embedded one with its own temporary data, or an external one.
struct BenchTarget: Sendable {
    let host: String
    let port: Int
    let codesFile: URL
    let embedded: (group: ServiceGroup, task: Task<Void, any Error>, directory: URL)?

    static func start(server: String?, codes: String?) async throws -> BenchTarget {
        if let server, let codes {
            let (host, port) = try ListenAddress.parse(server)
            return BenchTarget(host: host, port: port, codesFile: URL(fileURLWithPath: codes), embedded: nil)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: directory, development: true)
        // The benchmark registers many accounts and sends fast on purpose.
        configuration.registrationSurgeThreshold = .max
        configuration.requestsPerSecond = 1_000_000
        configuration.accountRequestsPerSecond = 1_000_000
        configuration.loginTimeoutSeconds = 3_600
        var logger = Logger(label: "parley.bench")
        logger.logLevel = .error
        let context = ServerContext(
            configuration: configuration, store: try SQLiteStore(path: configuration.databasePath), clock: SystemServerClock(),
            random: SystemRandomSource(), codeSender: DevelopmentCodeSender(file: configuration.developmentCodesFile, logger: logger),
            logger: logger)
        let server = try ParleyServer(context: context)
        let group = ServiceGroup(services: [server], logger: logger)
        let task = Task { try await group.run() }
        let address = try await server.boundAddress()
        return BenchTarget(
            host: "127.0.0.1", port: address.port ?? 0, codesFile: configuration.developmentCodesFile,
            embedded: (group, task, directory))
    }

    /// Resident memory of this process (the embedded server and the load generator together).
    func residentMemory() -> Int? {
        guard embedded != nil, let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb * 1024
    }

    func code(for email: String) -> String? {
        let text = (try? String(contentsOf: codesFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last { $0.hasPrefix("\(email) ") }.map { String($0.split(separator: " ")[1]) }
    }

    func stop() async throws {
        guard let embedded else { return }
        await embedded.group.triggerGracefulShutdown()
        try await embedded.task.value
        try? FileManager.default.removeItem(at: embedded.directory)
    }
}
