import Foundation
import ParleyServer

/// The server under load: an embedded one with its own temporary data, or an external one.
struct BenchTarget: Sendable {
    let host: String
    let port: Int
    let codesFile: URL
    let embedded: EmbeddedServer?

    static func start(server: String?, codes: String?) async throws -> BenchTarget {
        if let server, let codes {
            let (host, port) = try ListenAddress.parse(server)
            return BenchTarget(host: host, port: port, codesFile: URL(fileURLWithPath: codes), embedded: nil)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-bench-\(UUID().uuidString)")
        let embedded = try await EmbeddedServer.start(dataDirectory: directory) { configuration in
            // The benchmark registers many accounts and sends fast on purpose.
            configuration.registrationSurgeThreshold = .max
            configuration.requestsPerSecond = 1_000_000
            configuration.accountRequestsPerSecond = 1_000_000
            configuration.loginTimeoutSeconds = 3_600
        }
        return BenchTarget(
            host: "127.0.0.1", port: embedded.port, codesFile: directory.appendingPathComponent("dev-codes.log"), embedded: embedded)
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
        if let embedded { return embedded.latestCode(for: email) }
        let text = (try? String(contentsOf: codesFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last { $0.hasPrefix("\(email) ") }.map { String($0.split(separator: " ")[1]) }
    }

    func stop() async throws {
        guard let embedded else { return }
        try await embedded.stop()
        try? FileManager.default.removeItem(at: embedded.dataDirectory)
    }
}
