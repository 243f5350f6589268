import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy in front of a test server that can cut every connection, and holds each `login_finish`
/// request back for `hold` before passing it on: the window in which a reconnecting client has a socket
/// but is not logged in yet. It keeps the request lines clients sent, to count them by method, and can rewrite
/// the server's answers (`tamper`: a hostile server that replays, lies or drops). Plain blocking sockets on
/// threads of their own (never the test's pool).
///
/// Every descriptor is closed exactly once, by the last thread that uses it: this proxy runs inside the
/// test process, so a descriptor closed early gets reused by another test's connection, and a late
/// `shutdown`, `write` or `accept` on the old number would land on that connection.
final class LoginHoldingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let upstream: Int
    private let hold: Duration
    private let tamper: Tamper?
    private let state = Mutex<(clients: [SocketPair], holding: Int, requests: [String], methods: [String: String])>(([], 0, [], [:]))

    /// Rewrites one answer line of the server (without its newline), given the method of the request it answers.
    typealias Tamper = @Sendable (_ method: String, _ line: [UInt8]) -> [UInt8]

    init(upstream: Int, hold: Duration, tamper: Tamper? = nil) throws {
        self.upstream = upstream
        self.hold = hold
        self.tamper = tamper
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

    /// How many requests clients sent through the proxy whose line names `method`.
    func requests(_ method: String) -> Int {
        state.withLock { $0.requests.filter { $0.contains("\"\(method)\"") }.count }
    }

    /// Cuts every client connection (the server side closes after it).
    func cutAll() {
        let clients = state.withLock { state in defer { state.clients = [] }; return state.clients }
        clients.forEach { $0.cut() }
    }

    /// Stops accepting (the accept loop closes the listener as it ends) and cuts every connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
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
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstream)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { close(client); close(server); continue }
            let pair = SocketPair(client: client, server: server)
            state.withLock { $0.clients.append(pair) }
            let proxy = self
            pair.retain()
            pair.retain()
            Thread.detachNewThread { proxy.pump(pair, upstream: true) }
            Thread.detachNewThread { proxy.pump(pair, upstream: false) }
        }
    }

    /// Copies bytes until either side ends. Client→server, a `login_finish` line is held back for `hold`
    /// while the lines after it pass at once: what the server sees when a client writes a request on a new
    /// connection before its login.
    private func pump(_ pair: SocketPair, upstream holdingLogins: Bool) {
        defer { pair.release() }
        let (source, destination) = holdingLogins ? (pair.client, pair.server) : (pair.server, pair.client)
        let writer = Mutex(destination)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var pending: [UInt8] = []
        let connection = String(describing: ObjectIdentifier(pair))
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            guard holdingLogins else {
                guard let tamper else {
                    guard writer.withLock({ send($0, buffer, count, Int32(MSG_NOSIGNAL)) }) == count else { break }
                    continue
                }
                pending += buffer[0..<count]
                while let newline = pending.firstIndex(of: 0x0A) {
                    var line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if let id = Self.requestID(in: line), let method = state.withLock({ $0.methods[connection + id] }) {
                        line = tamper(method, line)
                    }
                    line.append(0x0A)
                    _ = writer.withLock { send($0, line, line.count, Int32(MSG_NOSIGNAL)) }
                }
                continue
            }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[...newline])
                pending.removeSubrange(...newline)
                let text = String(decoding: line, as: UTF8.self)
                state.withLock { $0.requests.append(text) }
                if tamper != nil, let id = Self.requestID(in: line),
                   let method = (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["type"] as? String {
                    state.withLock { $0.methods[connection + id] = method }
                }
                if text.contains("\"login_finish\"") {
                    state.withLock { $0.holding += 1 }
                    let (hold, proxy) = (self.hold, self)
                    pair.retain()
                    Thread.detachNewThread {
                        defer { pair.release() }
                        Thread.sleep(forTimeInterval: Double(hold.components.seconds) + Double(hold.components.attoseconds) / 1e18)
                        _ = writer.withLock { send($0, line, line.count, Int32(MSG_NOSIGNAL)) }
                        proxy.state.withLock { $0.holding -= 1 }
                    }
                } else {
                    _ = writer.withLock { send($0, line, line.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }
        pair.cut()
    }

    /// The `request_id` of a request or response line, if it has one.
    private static func requestID(in line: [UInt8]) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["request_id"] as? String
    }
}

/// A proxied connection's two sockets, closed together once no thread uses them any more.
private final class SocketPair: Sendable {
    let client: Int32
    let server: Int32
    private let users = Mutex<(count: Int, closed: Bool)>((0, false))

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    /// Registers a thread that will use the sockets (only while another user holds them, or before any).
    func retain() {
        users.withLock { $0.count += 1 }
    }

    /// The thread is done; the last one closes both sockets.
    func release() {
        let last = users.withLock { users -> Bool in
            users.count -= 1
            guard users.count == 0, !users.closed else { return false }
            users.closed = true
            return true
        }
        if last {
            close(client)
            close(server)
        }
    }

    /// Ends both directions, so the pumps finish; nothing once the sockets are closed.
    func cut() {
        users.withLock { users in
            guard !users.closed else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }
    }
}
