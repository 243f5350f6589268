import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy in front of a test server that can cut every connection, and holds each `login_finish`
/// request back for `hold` before passing it on: the window in which a reconnecting client has a socket
/// but is not logged in yet. Plain blocking sockets on threads of their own (never the test's pool).
final class LoginHoldingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let upstream: Int
    private let hold: Duration
    private let state = Mutex<(clients: [Int32], holding: Int)>(([], 0))

    init(upstream: Int, hold: Duration) throws {
        self.upstream = upstream
        self.hold = hold
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw HarnessError("the proxy could not listen")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let proxy = self
        Thread.detachNewThread { proxy.acceptLoop() }
    }

    /// How many `login_finish` requests are being held right now.
    var holding: Int { state.withLock { $0.holding } }

    /// Cuts every client connection (the server side closes after it).
    func cutAll() {
        let clients = state.withLock { state in defer { state.clients = [] }; return state.clients }
        clients.forEach { shutdown($0, Int32(SHUT_RDWR)) }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cutAll()
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstream)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { close(client); close(server); continue }
            state.withLock { $0.clients.append(client) }
            let proxy = self
            Thread.detachNewThread { proxy.pump(from: client, to: server, holdingLogins: true) }
            Thread.detachNewThread { proxy.pump(from: server, to: client, holdingLogins: false) }
        }
    }

    /// Copies bytes until either side ends. Client→server, a `login_finish` line is held back for `hold`
    /// while the lines after it pass at once: what the server sees when a client writes a request on a new
    /// connection before its login.
    private func pump(from source: Int32, to destination: Int32, holdingLogins: Bool) {
        let writer = Mutex(destination)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            guard holdingLogins else {
                guard writer.withLock({ write($0, buffer, count) }) == count else { break }
                continue
            }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[...newline])
                pending.removeSubrange(...newline)
                if String(decoding: line, as: UTF8.self).contains("\"login_finish\"") {
                    state.withLock { $0.holding += 1 }
                    let (hold, proxy) = (self.hold, self)
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: Double(hold.components.seconds) + Double(hold.components.attoseconds) / 1e18)
                        _ = writer.withLock { write($0, line, line.count) }
                        proxy.state.withLock { $0.holding -= 1 }
                    }
                } else {
                    _ = writer.withLock { write($0, line, line.count) }
                }
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        close(source)
    }
}
