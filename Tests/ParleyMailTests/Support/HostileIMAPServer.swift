import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import ParleyTestSupport

/// An IMAP server that plays by the rules up to the first FETCH of message bodies and then misbehaves in
/// one chosen way — over real TLS with a throwaway certificate, or in the clear to attack STARTTLS.
final class HostileIMAPServer: Sendable {
    enum Behaviour: Sendable {
        /// Announces a 4 GB literal and sends bytes until the client goes away.
        case hugeLiteral
        /// Starts a quoted string and never ends the line.
        case endlessLine
        /// Answers with bytes that are not IMAP.
        case garbage
        /// Sends half of the announced literal and closes the connection.
        case dropMidFetch
        /// Greets with bytes that are not an IMAP greeting.
        case badGreeting
        /// (Plain port) answers STARTTLS with OK and an injected line in the same packet.
        case injectAfterStartTLS
    }

    let port: Int
    let certificate: String
    /// Bytes of a flood the kernel has taken so far: more than any client can have read.
    var floodedBytes: Int { flooded.withLockedValue { $0 } }
    private let flooded = NIOLockedValueBox(0)
    private let channel: Channel
    private let directory: TemporaryDirectory

    init(_ behaviour: Behaviour) throws {
        directory = try TemporaryDirectory("parley-hostile-imap")
        let tls = try TestTLSServer.context(in: directory.url)
        certificate = tls.certificate
        let flooded = flooded
        let context = behaviour == .injectAfterStartTLS ? nil : tls.context
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    if let context { try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try child.pipeline.syncOperations.addHandler(Script(behaviour, flooded: flooded))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Answers line by line; misbehaves at the body FETCH.
    private final class Script: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let behaviour: Behaviour
        let flooded: NIOLockedValueBox<Int>
        var buffer: [UInt8] = []

        init(_ behaviour: Behaviour, flooded: NIOLockedValueBox<Int>) {
            self.behaviour = behaviour
            self.flooded = flooded
        }

        func channelActive(context: ChannelHandlerContext) {
            guard behaviour != .badGreeting else { return send(context, "HELLO ((( not imap\r\n") }
            send(context, "* OK [CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN] hostile server ready\r\n")
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            buffer += bytes.readBytes(length: bytes.readableBytes) ?? []
            while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                buffer.removeSubrange(...end)
                answer(line, context: context)
            }
        }

        func answer(_ line: String, context: ChannelHandlerContext) {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count >= 2 else { return }
            let tag = words[0]
            let command = words[1].uppercased()
            let rest = words.count > 2 ? words[2].uppercased() : ""
            switch command {
            case "STARTTLS":
                send(context, "\(tag) OK begin TLS\r\n* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] injected\r\n")
            case "LOGIN":
                send(context, "\(tag) OK logged in\r\n")
            case "LIST":
                send(context, "* LIST () \"/\" INBOX\r\n\(tag) OK done\r\n")
            case "SELECT":
                send(context, "* 1 EXISTS\r\n* OK [UIDVALIDITY 7] ok\r\n* OK [UIDNEXT 2] ok\r\n\(tag) OK [READ-WRITE] selected\r\n")
            case "UID" where rest.contains("BODY.PEEK[]"):
                misbehave(tag, context: context)
            case "UID":
                send(context, "* 1 FETCH (UID 1 RFC822.SIZE 100)\r\n\(tag) OK done\r\n")
            case "LOGOUT":
                send(context, "* BYE\r\n\(tag) OK bye\r\n")
                context.close(promise: nil)
            default:
                send(context, "\(tag) BAD unknown\r\n")
            }
        }

        func misbehave(_ tag: String, context: ChannelHandlerContext) {
            switch behaviour {
            case .hugeLiteral:
                send(context, "* 1 FETCH (UID 1 RFC822.SIZE 100 BODY[] {4000000000}\r\n")
                flood(context, chunk: [UInt8](repeating: UInt8(ascii: "A"), count: 64 * 1024))
            case .endlessLine:
                send(context, "* 1 FETCH (UID 1 RFC822.SIZE 100 BODY[] \"")
                flood(context, chunk: [UInt8](repeating: UInt8(ascii: "B"), count: 64 * 1024))
            case .garbage:
                send(context, "* 1 FETCH ((((\u{01}\u{02} ))) UID x BODY[] {3}\r\n\(tag) OK done\r\n")
            case .dropMidFetch:
                send(context, "* 1 FETCH (UID 1 RFC822.SIZE 100 BODY[] {100}\r\nSubject: half\r\n\r\nonly part of")
                context.close(promise: nil)
            case .injectAfterStartTLS, .badGreeting:
                send(context, "\(tag) OK done\r\n")
            }
        }

        /// Keeps writing `chunk`, 64 KiB at a time as writes complete, as long as the connection is open.
        func flood(_ context: ChannelHandlerContext, chunk: [UInt8]) {
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
