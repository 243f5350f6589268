import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ParleyWire
import Testing
@testable import ParleyClient

/// A server that turns hostile after the first answer, over real TLS sockets: what the client reads, holds and
/// acts on stays bounded, and once it gives up it takes in nothing more (the clean TLS shutdown reads for up to
/// 5 s, and let a flooding server push hundreds of MiB into a client that had given up; HostileIMAPTests found it
/// in the mail bridge).
@Suite(.serialized) struct HostileServerTests {
    /// What the kernel may buffer between the two ends beyond what the client read: loopback sockets' buffers.
    static let socketSlack = 32 << 20

    func connect(
        to server: HostileParleyServer, requestTimeout: TimeAmount = .seconds(5),
        onNotification: @escaping WireConnection.NotificationSink = { _, _, _ in true }
    ) async throws -> (WireConnection, closed: NIOLockedValueBox<Bool>) {
        let closed = NIOLockedValueBox(false)
        let address = ServerAddress(host: "127.0.0.1", port: server.port, tls: true, trustedCertificatesFile: server.certificate)
        let connection = try await WireConnection.connect(
            to: address, group: MultiThreadedEventLoopGroup.singleton, onNotification: onNotification,
            onClose: { closed.withLockedValue { $0 = true } }, requestTimeout: requestTimeout)
        return (connection, closed)
    }

    /// Waits for the connection's close, at most `limit`.
    func waitForClose(_ closed: NIOLockedValueBox<Bool>, limit: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, !closed.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(50)) }
        return closed.withLockedValue { $0 }
    }

    @Test func anEndlessLineIsCutOffAtTheLimitAndNothingIsReadAfter() async throws {
        let server = try HostileParleyServer(.endlessLine)
        let (connection, closed) = try await connect(to: server)
        await #expect(throws: ClientError.self) { _ = try await connection.call("ping", [:]) }

        let taken = try await server.floodStalled()
        #expect(taken < WireConnection.maximumLineLength + Self.socketSlack, "the server got \(taken >> 20) MiB in")
        // Closing TLS waits up to 5 s for the server's close_notify; the client must not read on meanwhile.
        try await Task.sleep(for: .seconds(2))
        #expect(server.floodedBytes - taken < Self.socketSlack, "the server got \((server.floodedBytes - taken) >> 20) MiB more in after the client stopped")
        #expect(try await waitForClose(closed))
    }

    @Test func aFloodOfNotificationsClosesTheConnectionAtTheBacklog() async throws {
        let server = try HostileParleyServer(.notificationFlood)
        let latch = Latch()
        let handled = NIOLockedValueBox(0)
        let pump = NotificationPump(handler: { _, _ in
            await latch.wait()
            handled.withLockedValue { $0 += 1 }
        })
        let (connection, closed) = try await connect(to: server) { event, fields, bytes in
            pump.push(event, fields, lineBytes: bytes)
        }
        _ = try await connection.call("ping", [:])

        // The account acts on nothing until the latch opens: the client holds its backlog and closes.
        #expect(try await waitForClose(closed))
        let taken = try await server.floodStalled()
        #expect(taken < Self.socketSlack, "the server got \(taken >> 20) MiB in")
        try await Task.sleep(for: .seconds(1))
        #expect(server.floodedBytes == taken)

        // What was taken in is acted on, in full, and nothing past the backlog was.
        await latch.release()
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, handled.withLockedValue({ $0 }) < NotificationPump.maximumCount {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(handled.withLockedValue { $0 } == NotificationPump.maximumCount)
    }

    /// The answer's values besides the zeros: the object, its type, request_id, ok and time, and the array.
    static let valuesAroundTheZeros = 6

    @Test func aLineOfMillionsOfValuesIsRefusedAndTheConnectionStaysUsable() async throws {
        let server = try HostileParleyServer(.manyValues(WireClientHandler.maximumValuesPerLine - Self.valuesAroundTheZeros + 1))
        let (connection, closed) = try await connect(to: server, requestTimeout: .seconds(2))
        // The answer is not read (a line the client cannot take is skipped), so the request times out ...
        await #expect(throws: ClientError.timeout("ping")) { _ = try await connection.call("ping", [:]) }
        // ... and the connection is still there for the next one.
        #expect(connection.isOpen)
        #expect(!closed.withLockedValue { $0 })
        await connection.close()
    }

    @Test func aLineJustWithinTheValueBudgetIsRead() async throws {
        let server = try HostileParleyServer(.manyValues(WireClientHandler.maximumValuesPerLine - Self.valuesAroundTheZeros))
        let (connection, _) = try await connect(to: server)
        let answer = try await connection.call("ping", [:])
        guard case .array(let zeros)? = answer["zeros"] else { Issue.record("no zeros"); return }
        #expect(zeros.count == WireClientHandler.maximumValuesPerLine - Self.valuesAroundTheZeros)
        await connection.close()
    }
}

/// Holds every waiter until released; after that, waiting returns at once.
actor Latch {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !open else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
