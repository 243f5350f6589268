import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import ParleyTLS
import ParleyWire
import Synchronization

/// One TCP (or TLS) connection to a Parley server: pipelined requests, responses matched by id,
/// notifications handed to a callback as they arrive.
final class WireConnection: Sendable {
    /// Takes one notification on the event loop: its name, its fields and the length of its line. False means the
    /// client cannot keep up with the server, and the connection closes (`NotificationPump`).
    typealias NotificationSink = @Sendable (_ event: String, _ fields: [String: JSONValue], _ lineBytes: Int) -> Bool

    /// The longest server line the client reads (a page of messages can be large).
    static let maximumLineLength = 128 << 20
    /// How long a request may wait for its answer, unless it asks the server to wait (`call(serverWait:)`).
    static let defaultRequestTimeout: TimeAmount = .seconds(30)

    private let channel: any Channel
    private let pending: PendingRequests
    private let diagnosis: ConnectionDiagnosis
    private let requestTimeout: TimeAmount

    private init(channel: any Channel, pending: PendingRequests, diagnosis: ConnectionDiagnosis, requestTimeout: TimeAmount) {
        self.diagnosis = diagnosis
        self.channel = channel
        self.pending = pending
        self.requestTimeout = requestTimeout
    }

    /// Connects to `address`; `onNotification` runs on the event loop for each notification, `onClose` once.
    static func connect(
        to address: ServerAddress, group: any EventLoopGroup,
        onNotification: @escaping NotificationSink,
        onClose: @escaping @Sendable () -> Void, requestTimeout: TimeAmount = defaultRequestTimeout
    ) async throws(ClientError) -> WireConnection {
        let pending = PendingRequests()
        let tls = try TLSSetup(address: address)
        let diagnosis = ConnectionDiagnosis(usesTLS: tls != nil)
        let handler: WireClientHandler.MessageSink = { message, lineBytes in
            switch message {
            case .success(let id, let fields): pending.complete(id, with: .success(fields))
            case .failure(let id?, let error): pending.complete(id, with: .failure(.server(error)))
            case .failure(nil, _): break
            case .notification(let event, let fields): return onNotification(event, fields, lineBytes)
            }
            return true
        }
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(10))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let gate = ReadGate()
                    try channel.pipeline.syncOperations.addHandler(gate)
                    if let tls { try channel.pipeline.syncOperations.addHandler(try tls.makeHandler()) }
                    try channel.pipeline.syncOperations.addHandler(WireClientHandler(
                        maximumLineLength: maximumLineLength, gate: gate, diagnosis: diagnosis, onMessage: handler,
                        onClose: { pending.close(); onClose() }))
                }
            }
        do {
            let channel = try await bootstrap.connect(host: address.host, port: address.port).get()
            if let local = channel.localAddress, local == channel.remoteAddress {
                // TCP simultaneous open: with no server listening, a connection to a local port in the ephemeral range
                // can be given that same port and connect to itself. It would echo our requests and hold the port.
                try? await channel.close()
                throw ClientError.unreachable("\(address): nothing is listening")
            }
            let connection = WireConnection(channel: channel, pending: pending, diagnosis: diagnosis, requestTimeout: requestTimeout)
            // A TLS failure (a pin mismatch included) surfaces on the first request, so make one now.
            if tls != nil { _ = try await connection.call(API.Ping.self, NoFields()) }
            return connection
        } catch let error as ClientError {
            if tls?.pinFailed() == true { throw .pinMismatch }
            if let explanation = diagnosis.explanation { throw .tlsProblem("\(address): \(explanation)") }
            throw error
        } catch {
            if let explanation = diagnosis.explanation { throw .tlsProblem("\(address): \(explanation)") }
            throw .unreachable("\(address): \(Self.describe(error))")
        }
    }

    /// Sends one request and waits for its answer: the connection's request timeout, plus `serverWait` for a request that asks the
    /// server to hold its answer that long (a long poll), so a slow server is not taken for a lost answer.
    func call(
        _ method: String, _ fields: [String: JSONValue], serverWait: TimeAmount = .zero
    ) async throws(ClientError) -> [String: JSONValue] {
        guard channel.isActive, !pending.isClosed else { throw .notConnected }
        let id = pending.nextID()
        let line: [UInt8]
        do {
            line = try WireRequest(method: method, requestID: id, fields: fields).encodedLine() + [0x0A]
        } catch {
            throw .invalidInput("cannot encode the request '\(method)'")
        }
        let channel = self.channel, pending = self.pending
        // Cancelled with the answer: a timer left to fire would hold its closure on the event loop for the whole
        // timeout, one per request (hundreds of thousands under a benchmark's load).
        let timer = Mutex<Scheduled<Void>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                pending.wait(for: id, continuation)
                let timeout = channel.eventLoop.scheduleTask(in: requestTimeout + serverWait) {
                    pending.complete(id, with: .failure(.timeout(method)))
                }
                timer.withLock { $0 = timeout }
                channel.writeAndFlush(ByteBuffer(bytes: line)).whenComplete { result in
                    if case .failure = result {
                        timeout.cancel()
                        pending.complete(id, with: .failure(.disconnected))
                    }
                }
            }
        } catch let error as ClientError {
            // A plain connection to a TLS port is only found out when the first answer is a TLS alert.
            if error == .disconnected, let explanation = diagnosis.explanation { throw .tlsProblem(explanation) }
            throw error
        } catch {
            throw .disconnected
        }
    }

    /// Whether the connection is still open.
    var isOpen: Bool { channel.isActive && !pending.isClosed }

    /// Closes the connection; waiters fail with `.disconnected`.
    func close() async {
        try? await channel.close()
    }

    static func describe(_ error: any Error) -> String {
        ConnectFailure.describe(error)
    }
}
