import ParleyTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HAProxy from Debian's package, run in the foreground with the repository's documented front-door
/// configuration (deploy/haproxy/parley.cfg) in front of the given node ports.
/// Started off the cooperative pool (its start waits for the port); its properties are set once, in `init`.
final class HAProxy: @unchecked Sendable {
    let process = Process()
    /// The front door's port on 127.0.0.1.
    let port: Int

    static func start(nodes: [Int]) async throws -> HAProxy {
        try await Blocking.run { try HAProxy(nodes: nodes) }
    }

    private init(nodes: [Int]) throws {
        precondition(nodes.count == 3, "deploy/haproxy/parley.cfg names three nodes")
        port = try LocalPorts.free()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/haproxy")
        process.arguments = ["-db", "-f", repository.appendingPathComponent("deploy/haproxy/parley.cfg").path]
        var environment = ProcessInfo.processInfo.environment
        environment["PARLEY_FRONT"] = "127.0.0.1:\(port)"
        for (index, node) in nodes.enumerated() { environment["PARLEY_NODE\(index + 1)"] = "127.0.0.1:\(node)" }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.start(process)
        // Ready once the front door accepts a connection.
        for _ in 0..<100 {
            if LocalPorts.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        process.waitUntilExit()
        throw LineSocket.Failure(description: "haproxy did not start listening on \(port)")
    }

    /// Sends SIGTERM and does not wait (it runs in a `defer`; Foundation reaps the process).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
    }
}
