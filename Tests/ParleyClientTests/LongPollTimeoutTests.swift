import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import ParleyClient

/// A request that asks the server to hold its answer (a long poll such as `pairing_wait`) waits that long on top
/// of the request timeout, so a server that keeps its word is not taken for one that lost the answer.
@Suite struct LongPollTimeoutTests {
    @Test func aLongPollGetsItsWaitOnTopOfTheTimeout() async throws {
        let server = try await SlowAnsweringServer.start(answerAfter: .milliseconds(1_500))
        defer { server.stop() }
        let connection = try await WireConnection.connect(
            to: ServerAddress(host: "127.0.0.1", port: server.port), group: MultiThreadedEventLoopGroup.singleton,
            onNotification: { _, _, _ in true }, onClose: {}, requestTimeout: .seconds(1))
        defer { Task { await connection.close() } }

        let answer = try await connection.call("pairing_wait", [:], serverWait: .seconds(2))
        #expect(answer["state"] == .string("ready"))

        await #expect(throws: ClientError.timeout("pairing_wait")) {
            _ = try await connection.call("pairing_wait", [:])
        }
    }
}

/// Answers every request line with `{"type":"response","request_id":…,"ok":true,"state":"ready"}`, `answerAfter` later.
private final class SlowAnsweringServer: Sendable {
    let port: Int
    private let channel: any Channel

    private init(channel: any Channel) {
        self.channel = channel
        port = channel.localAddress?.port ?? 0
    }

    static func start(answerAfter delay: TimeAmount) async throws -> SlowAnsweringServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(Answerer(delay: delay)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return SlowAnsweringServer(channel: channel)
    }

    func stop() {
        channel.close(promise: nil)
    }

    private final class Answerer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let delay: TimeAmount
        var received: [UInt8] = []

        init(delay: TimeAmount) { self.delay = delay }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += Array(buffer: unwrapInboundIn(data))
            while let end = received.firstIndex(of: 0x0A) {
                let line = Data(received[..<end])
                received.removeSubrange(...end)
                guard let request = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                    let id = request["request_id"] as? String else { continue }
                let answer = ByteBuffer(string: "{\"type\":\"response\",\"request_id\":\"\(id)\",\"ok\":true,\"state\":\"ready\"}\n")
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: delay) { bound.value.writeAndFlush(NIOAny(answer), promise: nil) }
            }
        }
    }
}
