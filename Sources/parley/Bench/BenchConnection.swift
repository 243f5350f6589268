import Foundation
import NIOCore
import NIOPosix
import ParleyWire
import Synchronization

/// One benchmark client connection: sends request lines, matches responses by id, and hands
/// notifications to a callback. Lines go through the wire's own JSON parser and writer, which keeps
/// the load generator cheap next to the server it measures.
final class BenchConnection: Sendable {
    typealias Notification = @Sendable (JSONObject) -> Void

    struct Failure: Error, CustomStringConvertible { let description: String }

    private struct State {
        var next = 0
        var waiting: [String: CheckedContinuation<JSONObject, any Error>] = [:]
        var outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>?
        var channel: (any Channel)?
        var closed = false
    }

    private let state = Mutex(State())

    private init() {}

    /// Connects to `host:port` and starts reading; returns once the connection can send.
    static func connect(host: String, port: Int, onNotification: @escaping Notification) async throws -> BenchConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let connection = BenchConnection()
        let ready = AsyncStream<Void>.makeStream()
        Task {
            try? await channel.executeThenClose { inbound, outbound in
                connection.state.withLock {
                    $0.outbound = outbound
                    $0.channel = channel.channel
                }
                ready.continuation.finish()
                var framer = LineFramer()
                for try await buffer in inbound {
                    for case .line(let line) in framer.feed(buffer.readableBytesView) {
                        guard case .object(let object)? = try? JSONParser.parse(line).value else { continue }
                        if object["type"] == "notification" {
                            onNotification(object)
                        } else if case .string(let id)? = object["request_id"] {
                            connection.resume(id, with: .success(object))
                        }
                    }
                }
            }
            ready.continuation.finish()
            connection.failAll()
        }
        for await _ in ready.stream {}
        return connection
    }

    /// Sends a request and waits for its response.
    func call(_ method: String, _ fields: JSONObject = [:]) async throws -> JSONObject {
        let id = state.withLock { state -> String in
            state.next += 1
            return "b\(state.next)"
        }
        var bytes = try WireRequest(method: method, requestID: id, fields: fields).encodedLine()
        bytes.append(0x0A)
        let line = ByteBuffer(bytes: bytes)
        let response = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONObject, any Error>) in
            let outbound = state.withLock { state -> NIOAsyncChannelOutboundWriter<ByteBuffer>? in
                guard !state.closed else { return nil }
                state.waiting[id] = continuation
                return state.outbound
            }
            guard let outbound else {
                continuation.resume(throwing: Failure(description: "connection closed"))
                return
            }
            Task {
                do {
                    try await outbound.write(line)
                } catch {
                    self.resume(id, with: .failure(error))
                }
            }
        }
        return response
    }

    private func resume(_ id: String, with result: Result<JSONObject, any Error>) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(with: result)
    }

    private func failAll() {
        let all = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        all.forEach { $0.resume(throwing: Failure(description: "connection closed")) }
    }

    /// Closes the connection.
    func close() {
        state.withLock { $0.channel }?.close(promise: nil)
    }
}
