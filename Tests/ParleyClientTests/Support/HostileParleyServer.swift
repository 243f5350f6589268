import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import ParleyTestSupport

/// A Parley server over real TLS (a throwaway certificate) that answers the client's first request properly and
/// then misbehaves in one chosen way.
final class HostileParleyServer: Sendable {
    enum Behaviour: Sendable {
        /// Starts a line and never ends it, writing as fast as the client takes the bytes.
        case endlessLine
        /// Writes short, well-formed notifications as fast as the client takes them.
        case notificationFlood
        /// Answers each later request with a well-formed line of `values` zeros.
        case manyValues(Int)
    }

    let port: Int
    let certificate: String
    /// Bytes of a flood the kernel has taken so far: more than the client can have read.
    var floodedBytes: Int { flooded.withLockedValue { $0 } }
    private let flooded = NIOLockedValueBox(0)
    private let channel: any Channel
    private let directory: TemporaryDirectory

    init(_ behaviour: Behaviour) throws {
        directory = try TemporaryDirectory("parley-hostile-server")
        let (context, cert) = try TestTLSServer.context(in: directory.url)
        certificate = cert
        let flooded = flooded
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let ears = Ears()
                    try child.pipeline.syncOperations.addHandler(ears)
                    try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try child.pipeline.syncOperations.addHandler(Script(behaviour, ears: ears, flooded: flooded))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Waits until the flood has stalled (no byte taken for `quiet`), at most `limit`; returns the bytes taken.
    func floodStalled(quiet: Duration = .seconds(1), limit: Duration = .seconds(30)) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        var last = floodedBytes, since = clock.now
        while clock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let now = floodedBytes
            if now != last { (last, since) = (now, clock.now) } else if clock.now - since >= quiet, now > 0 { break }
        }
        return last
    }

    /// Nearest the socket: once deaf, drops every byte the client sends.
    private final class Ears: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        var deaf = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if !deaf { context.fireChannelRead(data) }
        }
    }

    /// Answers requests line by line: the first properly, the rest as `behaviour` says.
    private final class Script: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let behaviour: Behaviour
        let ears: Ears
        let flooded: NIOLockedValueBox<Int>
        var buffer: [UInt8] = []
        var answered = 0

        init(_ behaviour: Behaviour, ears: Ears, flooded: NIOLockedValueBox<Int>) {
            self.behaviour = behaviour
            self.ears = ears
            self.flooded = flooded
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            buffer += bytes.readBytes(length: bytes.readableBytes) ?? []
            while let end = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let request = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                    let id = request["request_id"] as? String else { continue }
                answer(id, context: context)
            }
        }

        func answer(_ id: String, context: ChannelHandlerContext) {
            answered += 1
            let ok = "{\"type\":\"response\",\"request_id\":\"\(id)\",\"ok\":true,\"time\":0"
            guard answered > 1 else { return send(context, ok + "}\n") }
            switch behaviour {
            case .endlessLine:
                guard answered == 2 else { return }
                send(context, "{\"type\":\"notification\",\"event\":\"message_new\",\"pad\":\"")
                flood(context, chunk: [UInt8](repeating: UInt8(ascii: "A"), count: 64 << 10))
            case .notificationFlood:
                guard answered == 2 else { return }
                send(context, ok + "}\n")
                let one = Array("{\"type\":\"notification\",\"event\":\"message_new\",\"conversation_id\":1,\"message_id\":2}\n".utf8)
                flood(context, chunk: Array(repeating: one, count: (64 << 10) / one.count).flatMap { $0 })
            case .manyValues(let count):
                var line = Array((ok + ",\"zeros\":[0").utf8)
                line.reserveCapacity(line.count + 2 * count + 3)
                for _ in 1..<count { line += [UInt8(ascii: ","), UInt8(ascii: "0")] }
                line += Array("]}\n".utf8)
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line)), promise: nil)
            }
        }

        /// Keeps writing `chunk`, hearing nothing more (so not the client's close_notify either: a polite TLS server
        /// would close on it).
        func flood(_ context: ChannelHandlerContext, chunk: [UInt8]) {
            ears.deaf = true
            Flood.keepWriting(chunk, on: context, counting: flooded)
        }

        func send(_ context: ChannelHandlerContext, _ text: String) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
