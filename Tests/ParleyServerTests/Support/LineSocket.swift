import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP client for tests: real sockets, and full control over the bytes sent.
///
/// The socket calls block, so every public method runs them on the socket's own dispatch queue:
/// blocking a Swift-concurrency thread would starve the in-process server on a 2-core machine.
final class LineSocket: @unchecked Sendable {
    private let queue = DispatchQueue(label: "parley.test.socket")

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` from `source` (another loopback address, such as 127.0.0.2, plays a
    /// second machine); reads time out after `timeout` seconds (generous: on a loaded 2-core machine the
    /// whole suite runs in parallel, and no test relies on the timeout).
    init(port: Int, timeout: Int = 60, source: String? = nil) throws {
        // `self.fd` is set only once connected: a class whose init throws after every stored property is
        // set still runs `deinit`, whose second close(fd) once closed whatever another test had opened
        // under the same number meanwhile (a server's accepted socket, another client's connection).
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(descriptor)
                throw Failure(description: "bind to \(source) failed")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect to port \(port) failed")
        }
        var interval = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        fd = descriptor
    }

    deinit { close(fd) }

    /// Closes the connection in both directions, as a client that goes away would.
    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends raw bytes; returns false if the peer has closed.
    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        (try? await onQueue { self.sendBlocking(bytes) }) ?? false
    }

    private func sendBlocking(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends one JSON object as a line.
    func send(json: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        await send(Array(data) + [0x0A])
    }

    /// The next line, or nil when the server closed the connection.
    func readLine() async throws -> String? {
        try await onQueue { try self.readLineBlocking() }
    }

    private func readLineBlocking() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            if count < 0 {
                // A signal to this process (a child exiting, with a handler installed) interrupts the wait: wait on.
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw Failure(description: "timed out waiting for the server (errno \(errno))")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The next line parsed as a JSON object.
    func readJSON() async throws -> [String: Any]? {
        guard let line = try await readLine() else { return nil }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "server sent a non-object line: \(line)")
        }
        return object
    }

    private var nextID = 0
    /// Notifications that arrived while a response was awaited, oldest first.
    private(set) var notifications: [[String: Any]] = []

    /// The next notification called `event`, skipping (and dropping) others before it.
    func nextNotification(named event: String, within attempts: Int = 20) async throws -> [String: Any] {
        for _ in 0..<attempts {
            let note = try await nextNotification()
            if note["event"] as? String == event { return note }
        }
        throw Failure(description: "no \(event) notification among the next \(attempts)")
    }

    /// The next notification: one seen earlier, or the next to arrive.
    func nextNotification() async throws -> [String: Any] {
        if !notifications.isEmpty { return notifications.removeFirst() }
        while let message = try await readJSON() {
            if message["type"] as? String == "notification" { return message }
        }
        throw Failure(description: "connection closed while waiting for a notification")
    }

    /// Sends a request and returns its response, skipping notifications.
    func call(_ method: String, _ fields: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        var request = fields
        request["type"] = method
        request["request_id"] = "t\(nextID)"
        try await send(json: request)
        while let message = try await readJSON() {
            if message["type"] as? String == "response" { return message }
            notifications.append(message)
        }
        throw Failure(description: "connection closed while waiting for the response to \(method)")
    }
}

extension Dictionary where Key == String, Value == Any {
    var ok: Bool { self["ok"] as? Bool == true }
    var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
    var errorDetails: [String: Any]? { (self["error"] as? [String: Any])?["details"] as? [String: Any] }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}
