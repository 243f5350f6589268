import ParleyTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// HAProxy from Debian's package, run in the foreground with the repository's documented front-door
/// configuration (deploy/haproxy/parley.cfg) in front of the given node ports.
final class HAProxy {
    let process = Process()
    /// The front door's port on 127.0.0.1.
    let port: Int

    init(nodes: [Int]) throws {
        precondition(nodes.count == 3, "deploy/haproxy/parley.cfg names three nodes")
        port = try Self.freePort()
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
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw LineSocket.Failure(description: "haproxy did not start listening on \(port)")
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// A port that was free a moment ago (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw LineSocket.Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
