import Foundation
import NIOCore
import NIOPosix
import ParleyClient
import ParleyWire

/// One benchmark client connection: sends request lines, matches responses by id, and hands
/// notifications to a callback.
///
/// Everything runs on the connection's event loop, in a plain channel handler: a send, its response
/// and a notification cost no hop to Swift's task pool and back. The load generator shares the
/// machine with the server it measures, so every cycle it saves is one the server can use.
final class BenchConnection: Sendable {
    typealias Notification = @Sendable (JSONObject) -> Void

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let channel: any Channel
    private let handler: NIOLoopBound<BenchLineHandler>

    private init(channel: any Channel, handler: NIOLoopBound<BenchLineHandler>) {
        self.channel = channel
        self.handler = handler
    }

    var eventLoop: any EventLoop { channel.eventLoop }

    /// The generator's own event loop, apart from the embedded server's (`MultiThreadedEventLoopGroup.singleton`):
    /// sharing the server's loops would delay both, and count the generator's own queueing as latency.
    /// One thread carries 1,000 connections at 5,000 msg/s in about half a core.
    /// `bench peer`'s connections run on it too (`PeerConnection`).
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Connects to `host:port`; `onNotification` runs on the connection's event loop.
    static func connect(host: String, port: Int, onNotification: @escaping Notification) async throws -> BenchConnection {
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(BenchLineHandler(onNotification: onNotification))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            throw Failure(description: "cannot connect to \(host):\(port): \(ConnectFailure.describe(error))")
        }
        let handler = try await channel.eventLoop.submit {
            NIOLoopBound(try channel.pipeline.syncOperations.handler(type: BenchLineHandler.self), eventLoop: channel.eventLoop)
        }.get()
        return BenchConnection(channel: channel, handler: handler)
    }

    /// Sends a request and waits for its response.
    func call(_ method: String, _ fields: JSONObject = [:]) async throws -> JSONObject {
        let promise = channel.eventLoop.makePromise(of: JSONObject.self)
        channel.eventLoop.execute { [self] in
            send(method, fields) { promise.completeWith($0) }
        }
        return try await promise.futureResult.get()
    }

    /// Sends a request without waiting; `onResponse` runs on the event loop with the response, or with
    /// an error when the connection is lost first. Call on the connection's event loop.
    func send(_ method: String, _ fields: JSONObject, onResponse: @escaping (Result<JSONObject, any Error>) -> Void) {
        let handler = handler.value
        let id = handler.nextRequestID()
        let bytes: [UInt8]
        do {
            bytes = try WireRequest(method: method, requestID: id, fields: fields).encodedLine() + [0x0A]
        } catch {
            onResponse(.failure(error))
            return
        }
        guard handler.expect(id, onResponse) else { return }
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }

    /// Closes the connection.
    func close() {
        channel.close(promise: nil)
    }
}

/// Frames the connection's lines and routes them: responses to whoever waits for their id,
/// notifications to the callback. Lives on the event loop.
final class BenchLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let onNotification: BenchConnection.Notification
    private var framer = LineFramer()
    private var waiting: [String: (Result<JSONObject, any Error>) -> Void] = [:]
    private var requests = 0
    private var closed = false

    init(onNotification: @escaping BenchConnection.Notification) {
        self.onNotification = onNotification
    }

    func nextRequestID() -> String {
        requests += 1
        return "b\(requests)"
    }

    /// Registers `onResponse` for request `id`; false (after failing it) when the connection is closed.
    func expect(_ id: String, _ onResponse: @escaping (Result<JSONObject, any Error>) -> Void) -> Bool {
        guard !closed else {
            onResponse(.failure(BenchConnection.Failure(description: "connection closed")))
            return false
        }
        waiting[id] = onResponse
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for case .line(let line) in framer.feed(buffer.readableBytesView) {
            guard case .object(let object)? = try? JSONParser.parse(line).value else { continue }
            if object["type"] == "notification" {
                onNotification(object)
            } else if case .string(let id)? = object["request_id"] {
                waiting.removeValue(forKey: id)?(.success(object))
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        let all = waiting.values
        waiting = [:]
        all.forEach { $0(.failure(BenchConnection.Failure(description: "connection closed"))) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
