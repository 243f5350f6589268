import Foundation
import ParleyLocation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to gpsd that yields fixes (gpsd's JSON protocol, `?WATCH`).
///
/// Blocking socket calls run on the connection's own queue so they never hold a Swift
/// concurrency thread; the format logic lives in ``GPSDReport``.
public final class GPSDConnection: @unchecked Sendable {
    /// `HOST:PORT`, or `[IPv6]:PORT`.
    public struct Endpoint: Sendable {
        /// The host name or address.
        public let host: String
        /// The TCP port.
        public let port: UInt16

        /// Reads `--gpsd`'s value.
        public init(parsing text: String) throws {
            guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else {
                throw LocationFeedError("--gpsd must be HOST:PORT, for example 127.0.0.1:2947")
            }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw LocationFeedError("--gpsd must be HOST:PORT, for example 127.0.0.1:2947") }
            self.host = host
            self.port = port
        }
    }

    /// How long gpsd may send nothing at all before the feed ends with an error. A gpsd with a receiver attached
    /// reports at least once a second, a fix or not; silence means no receiver is sending (or gpsd stalled), and
    /// waiting on would leave `parley location post --gpsd` hanging without a word.
    public static let silenceLimit: Duration = .seconds(60)

    private let fd: Int32
    private let name: String
    private let silence: Duration
    private let queue = DispatchQueue(label: "parley.gpsd")
    private var buffer: [UInt8] = []

    private init(fd: Int32, name: String, silence: Duration) {
        self.fd = fd
        self.name = name
        self.silence = silence
    }

    /// Connects and asks gpsd to start sending JSON reports; `silence` is how long it may then send nothing.
    public static func open(_ endpoint: Endpoint, silence: Duration = silenceLimit) async throws -> GPSDConnection {
        let connection = try await onQueue { () throws -> GPSDConnection in
            let fd = try openSocket(endpoint)
            var limit = timeval(tv_sec: Int(silence.components.seconds), tv_usec: Int(silence.components.attoseconds / 1_000_000_000_000))
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            return GPSDConnection(fd: fd, name: "\(endpoint.host):\(endpoint.port)", silence: silence)
        }
        guard await connection.write(Array(GPSDReport.watchCommand.utf8)) else {
            connection.disconnect()
            throw LocationFeedError("gpsd at \(endpoint.host):\(endpoint.port) closed the connection")
        }
        return connection
    }

    /// The next usable fix, or nil when gpsd closes the connection.
    public func nextFix() async throws -> Waypoint? {
        while let line = try await readLine() {
            if let waypoint = GPSDReport.waypoint(fromLine: line) { return waypoint }
        }
        return nil
    }

    /// Closes the connection.
    public func disconnect() { _ = close(fd) }

    private func write(_ bytes: [UInt8]) async -> Bool {
        (try? await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
            queue.async {
                let sent = bytes.withUnsafeBytes { send(self.fd, $0.baseAddress, $0.count, Self.noSignal) }
                continuation.resume(returning: sent == bytes.count)
            }
        }) ?? false
    }

    private func readLine() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.readLineBlocking() }) }
        }
    }

    private func readLineBlocking() throws -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            // A line longer than any gpsd report is dropped rather than buffered without bound.
            if buffer.count > GPSDReport.maxLineLength { buffer.removeAll() }
            var chunk = [UInt8](repeating: 0, count: 8192)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw LocationFeedError(
                        "gpsd at \(name) has sent nothing for \(silence.components.seconds) s: is a GPS receiver attached and sending? ('gpspipe -w \(name)' shows what gpsd reports)")
                }
                throw LocationFeedError("reading from gpsd failed (errno \(errno))")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private static func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    private static let noSignal: Int32 = 0
    private static let streamSocket = SOCK_STREAM
    #endif

    private static func openSocket(_ endpoint: Endpoint) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list) == 0, let first = list else {
            throw LocationFeedError("cannot resolve gpsd host \(endpoint.host)")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
                _ = close(fd)
            }
            entry = info.pointee.ai_next
        }
        throw LocationFeedError("cannot connect to gpsd at \(endpoint.host):\(endpoint.port); is gpsd running?")
    }
}
