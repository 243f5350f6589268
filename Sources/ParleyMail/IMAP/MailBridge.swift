#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CParleyMail
import NIOCore
import NIOPosix
import NIOSSL
import ParleyTLS

/// libetpan's network (docs/MAIL.md §2): libetpan reads and writes one end of a socketpair; SwiftNIO carries
/// the other end to the server over verified TLS, spending a byte budget on what the server sends.
final class MailBridge: Sendable {
    /// The descriptor libetpan uses; its stream owns and closes it.
    let clientDescriptor: Int32
    /// The budget the session grants before each command.
    let budget: ByteBudget
    /// Fails libetpan's reads when the server is gone or over budget.
    let canceller: StreamCanceller
    /// Raised whenever the server sends bytes (or hangs up).
    let activity: ActivitySignal
    private let server: Channel
    private let client: Channel

    /// How long connecting, STARTTLS and the TLS handshake may take together.
    static let setupTimeout = TimeAmount.seconds(30)

    private init(clientDescriptor: Int32, budget: ByteBudget, canceller: StreamCanceller, activity: ActivitySignal, server: Channel, client: Channel) {
        self.clientDescriptor = clientDescriptor
        self.budget = budget
        self.canceller = canceller
        self.activity = activity
        self.server = server
        self.client = client
    }

    /// Connects to `server` and makes it ready for libetpan: encrypted and verified, and for STARTTLS with the
    /// greeting read in the clear written to libetpan's side first. Blocks; never call it on an event loop.
    static func open(_ server: MailServer, dialect: StartTLSNegotiation.Dialect = .imap, group: any EventLoopGroup) throws(MailboxError) -> MailBridge {
        let tls = try MailTLS(server)
        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue)
        #else
        let kind = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, kind, 0, &pair) == 0 else { throw .connection("cannot make a local socket pair") }
        let budget = ByteBudget()
        let canceller = StreamCanceller()
        let activity = ActivitySignal()
        let loop = group.next()
        let handshake = loop.makePromise(of: Void.self)
        let greeting = loop.makePromise(of: [UInt8].self)
        let timeout = loop.scheduleTask(in: setupTimeout) {
            handshake.fail(MailboxError.connection("no answer within \(setupTimeout.nanoseconds / 1_000_000_000) s"))
            greeting.fail(MailboxError.connection("no answer within \(setupTimeout.nanoseconds / 1_000_000_000) s"))
        }
        defer {
            timeout.cancel()
            // Every path completes both promises (a completed one ignores this); NIO traps on a dropped promise.
            handshake.fail(MailboxError.connection("the connection setup ended"))
            greeting.fail(MailboxError.connection("the connection setup ended"))
        }
        let serverChannel: Channel
        do {
            serverChannel = try ClientBootstrap(group: loop)
                .connectTimeout(.seconds(15))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ReadGate())
                        switch server.security {
                        case .tls:
                            try channel.pipeline.syncOperations.addHandler(tls.makeHandler())
                            try channel.pipeline.syncOperations.addHandler(FromServer(budget: budget, canceller: canceller, activity: activity, handshake: handshake))
                        case .starttls:
                            try channel.pipeline.syncOperations.addHandler(StartTLSNegotiation(dialect, done: greeting))
                        }
                    }
                }
                .connect(host: server.host, port: server.port).wait()
        } catch {
            closePair(pair)
            throw .connection("cannot connect to \(server): \(Self.words(error))")
        }
        var plainGreeting: [UInt8] = []
        do {
            if server.security == .starttls {
                plainGreeting = try greeting.futureResult.wait()
                try serverChannel.eventLoop.submit {
                    let pipeline = serverChannel.pipeline.syncOperations
                    try pipeline.removeHandler(pipeline.handler(type: StartTLSNegotiation.self)).whenComplete { _ in }
                    try pipeline.addHandler(tls.makeHandler())
                    try pipeline.addHandler(FromServer(budget: budget, canceller: canceller, activity: activity, handshake: handshake))
                }.wait()
            } else {
                greeting.succeed([])
            }
            try handshake.futureResult.wait()
        } catch {
            serverChannel.close(promise: nil)
            closePair(pair)
            if let error = error as? MailboxError { throw error }
            throw tls.explain(error)
        }
        let clientChannel: Channel
        do {
            clientChannel = try ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ToServer(server: serverChannel))
                    }
                }
                .withConnectedSocket(pair[1]).wait()
        } catch {
            serverChannel.close(promise: nil)
            closePair(pair)
            throw .connection("cannot set up the local socket: \(error)")
        }
        let bridge = MailBridge(clientDescriptor: pair[0], budget: budget, canceller: canceller, activity: activity, server: serverChannel, client: clientChannel)
        let held = plainGreeting
        serverChannel.eventLoop.execute {
            if !held.isEmpty { clientChannel.writeAndFlush(ByteBuffer(bytes: held), promise: nil) }
            try? serverChannel.pipeline.syncOperations.handler(type: FromServer.self).attach(clientChannel)
        }
        return bridge
    }

    /// How long libetpan waits for the server's next bytes.
    static let readTimeout = 30

    /// libetpan's stream over this bridge (moved to a descriptor select() can hold), its reads cancellable.
    func openStream() throws(MailboxError) -> UnsafeMutablePointer<mailstream> {
        guard let stream = parley_stream_open(clientDescriptor, time_t(Self.readTimeout)) else {
            throw .connection("this process has too many files open for the mail library (libetpan waits with select(), which stops at descriptor 1024)")
        }
        canceller.attach(stream)
        return stream
    }

    /// Closes both sides (libetpan then sees the end of its stream).
    func close() {
        server.close(promise: nil)
        client.close(promise: nil)
    }

    private static func closePair(_ pair: [Int32]) {
        #if canImport(Glibc)
        for descriptor in pair where descriptor >= 0 { _ = Glibc.close(descriptor) }
        #else
        for descriptor in pair where descriptor >= 0 { _ = Darwin.close(descriptor) }
        #endif
    }

    /// A connection error without NIO's type names.
    static func words(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("connectTimeout") { return "no answer (timed out)" }
        if text.contains("refused") || text.contains("ECONNREFUSED") { return "connection refused" }
        if text.contains("unresolved") || text.contains("NXDOMAIN") || text.contains("resolve") { return "the name does not resolve" }
        return "the connection failed"
    }
}
