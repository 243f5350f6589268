import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One conversation with a mail server: greeting, EHLO, STARTTLS, AUTH, then commands.
struct SMTPSession {
    let channel: any Channel
    let handler: NIOLoopBound<SMTPReplyHandler>
    let configuration: SMTPConfiguration
    private(set) var isEncrypted: Bool
    private(set) var extensions: [String] = []

    /// Connects and gets as far as a ready, authenticated session.
    static func open(_ configuration: SMTPConfiguration, group: any EventLoopGroup) async throws(SMTPError) -> SMTPSession {
        let implicitTLS = configuration.security == .tls
        if implicitTLS { _ = try makeTLSHandler(configuration) }  // settings errors before connecting
        // The handler is kept from the start: a server that misbehaves at once closes the channel
        // (and empties the pipeline) before the first reply is asked for, and its error must survive.
        let slot = HandlerSlot()
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(configuration.timeoutSeconds))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicitTLS { try channel.pipeline.syncOperations.addHandler(try makeTLSHandler(configuration)) }
                    let handler = SMTPReplyHandler()
                    slot.set(NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw .unreachable("\(configuration.host):\(configuration.port): \(error)")
        }
        guard let handler = slot.value else { throw .unreachable("the connection closed at once") }
        var session = SMTPSession(channel: channel, handler: handler, configuration: configuration, isEncrypted: implicitTLS)
        do {
            try await session.expect(220, step: "the greeting")
            try await session.hello()
            if configuration.security == .startTLS {
                try await session.command("STARTTLS", expect: 220, step: "STARTTLS")
                try await session.startTLS()
                try await session.hello()
            }
            try await session.authenticate()
            return session
        } catch {
            session.close()
            throw error
        }
    }

    private mutating func hello() async throws(SMTPError) {
        let reply = try await command("EHLO \(configuration.heloName)", expect: 250, step: "EHLO")
        extensions = reply.lines.dropFirst().map { $0.uppercased() }
    }

    private mutating func startTLS() async throws(SMTPError) {
        let channel = self.channel, configuration = self.configuration
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(try Self.makeTLSHandler(configuration), position: .first)
            }.get()
        } catch {
            throw .unreachable("TLS could not start: \(error)")
        }
        isEncrypted = true
    }

    private func authenticate() async throws(SMTPError) {
        guard let username = configuration.username else { return }
        guard isEncrypted else { throw .invalid("refusing to send the SMTP password without TLS; use --smtp-security starttls or tls") }
        let secret = Data(([0] + Array(username.utf8) + [0] + Array((configuration.password ?? "").utf8))).base64EncodedString()
        // The reply, not the command, goes into any error: the command carries the password.
        try await command("AUTH PLAIN \(secret)", expect: 235, step: "AUTH (check the user name and password)")
    }

    static func makeTLSHandler(_ configuration: SMTPConfiguration) throws(SMTPError) -> NIOSSLClientHandler {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let file = configuration.trustedCertificatesFile { tls.trustRoots = .file(file) }
        do {
            let context = try NIOSSLContext(configuration: tls)
            let isAddress = configuration.host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
            return try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : configuration.host)
        } catch {
            throw .invalid("the SMTP TLS settings cannot be used: \(error)")
        }
    }

    /// Sends one command line and checks the reply's code.
    @discardableResult
    func command(_ line: String, expect code: Int, step: String) async throws(SMTPError) -> SMTPReply {
        try await send(Array((line + "\r\n").utf8))
        return try await expect(code, step: step)
    }

    /// Sends raw bytes.
    func send(_ bytes: [UInt8]) async throws(SMTPError) {
        do {
            try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        } catch {
            throw .unreachable("the connection broke while sending")
        }
    }

    /// Waits for the next reply and checks its code.
    @discardableResult
    func expect(_ code: Int, step: String) async throws(SMTPError) -> SMTPReply {
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        let handler = self.handler, loop = channel.eventLoop, channel = self.channel
        loop.execute { handler.value.nextReply(promise) }
        let timeout = loop.scheduleTask(in: .seconds(configuration.timeoutSeconds)) {
            promise.fail(SMTPError.timeout(step))
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        let reply: SMTPReply
        do {
            reply = try await promise.futureResult.get()
        } catch let error as SMTPError {
            throw error
        } catch {
            throw .unreachable("\(error)")
        }
        guard reply.code == code else { throw .refused(step: step, code: reply.code, text: String(reply.text.prefix(200))) }
        return reply
    }

    /// Says QUIT (best effort) and closes.
    func close() {
        channel.writeAndFlush(ByteBuffer(string: "QUIT\r\n")).whenComplete { _ in self.channel.close(promise: nil) }
    }
}

/// Hands the reply handler from the channel initializer to the session.
private final class HandlerSlot: Sendable {
    private let stored = Mutex<NIOLoopBound<SMTPReplyHandler>?>(nil)
    func set(_ handler: NIOLoopBound<SMTPReplyHandler>) { stored.withLock { $0 = handler } }
    var value: NIOLoopBound<SMTPReplyHandler>? { stored.withLock { $0 } }
}
