import Foundation
@testable import ParleyClient
import ParleyWire
import Synchronization
import Testing

/// The account's connection on a real server, with an owner whose login the test holds and releases: the races
/// between the user's `connect()` and a background reconnect, played in a fixed order.
@Suite("Account connection")
struct AccountConnectionTests {
    @Test("connect() during a reconnect's login waits for it and reports its outcome: signed out, not a success")
    func connectDuringAReconnectThatEndsSignedOut() async throws {
        let (harness, owner, connection) = try await Self.reconnectHeldAtLogin()
        let outcome = Self.connectMeanwhile(connection)
        try await Task.sleep(for: .milliseconds(300))
        #expect(owner.loginsStarted == 2, "connect() started a second attempt beside the one under way")
        owner.releaseHeldLogin(with: .signedOut)
        #expect(await outcome.value == .signedOut, "connect() must report the attempt's outcome")
        #expect(await !connection.isConnected)
        await connection.close()
        try await harness.stop()
    }

    @Test("connect() during a reconnect's login that succeeds returns connected, with one login in all")
    func connectDuringAReconnectThatSucceeds() async throws {
        let (harness, owner, connection) = try await Self.reconnectHeldAtLogin()
        let outcome = Self.connectMeanwhile(connection)
        try await Task.sleep(for: .milliseconds(300))
        owner.releaseHeldLogin(with: nil)
        #expect(await outcome.value == nil)
        #expect(await connection.isConnected)
        #expect(owner.loginsStarted == 2 && owner.setUps == 2)
        await connection.close()
        try await harness.stop()
    }

    @Test("a connection whose account is gone opens nothing and calls nothing")
    func anOwnerlessConnectionRefuses() async throws {
        let harness = try await ClientHarness.start()
        let connection: AccountConnection
        do {
            let owner = HeldLoginOwner()
            connection = Self.connection(to: harness, owner: owner)
        }
        await #expect(throws: ClientError.notConnected) { try await connection.connect(reconnect: false, catchUp: false) }
        await #expect(throws: ClientError.notConnected) { try await connection.call(API.Ping.self, NoFields()) }
        #expect(await !connection.isConnected)
        try await harness.stop()
    }

    /// A connection that logged in once, then lost its socket; its reconnect has opened a new one and is held at
    /// the login (the owner's second).
    private static func reconnectHeldAtLogin() async throws -> (ClientHarness, HeldLoginOwner, AccountConnection) {
        let harness = try await ClientHarness.start()
        let owner = HeldLoginOwner()
        let connection = Self.connection(to: harness, owner: owner)
        try await connection.connect(reconnect: true, catchUp: false)
        #expect(await connection.isConnected)
        owner.holdNextLogin()
        await connection.connection?.close()
        try await eventually("the reconnect's login to start") { owner.loginsStarted == 2 }
        return (harness, owner, connection)
    }

    /// The user's `connect()` while that reconnect is under way; its error, or nil when it connected.
    private static func connectMeanwhile(_ connection: AccountConnection) -> Task<ClientError?, Never> {
        Task {
            do throws(ClientError) {
                try await connection.connect(reconnect: true, catchUp: false)
                return nil
            } catch { return error }
        }
    }

    private static func connection(to harness: ClientHarness, owner: HeldLoginOwner) -> AccountConnection {
        let connection = AccountConnection(
            server: harness.address, group: ClientDependencies().eventLoopGroup,
            policy: ReconnectPolicy(initial: 0.05, maximum: 0.1), events: EventBroadcaster<ClientEvent>())
        connection.attach(owner) { _, _ in }
        return connection
    }
}

/// An account stand-in whose logins succeed at once, except one the test holds until it releases it.
private final class HeldLoginOwner: ConnectionOwner {
    private struct State {
        var started = 0
        var setUps = 0
        var holdNext = false
        var held: CheckedContinuation<ClientError?, Never>?
    }
    private let state = Mutex(State())

    var loginsStarted: Int { state.withLock { $0.started } }
    var setUps: Int { state.withLock { $0.setUps } }

    func holdNextLogin() { state.withLock { $0.holdNext = true } }

    func releaseHeldLogin(with outcome: ClientError?) {
        let held = state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
        held?.resume(returning: outcome)
    }

    func logIn() async throws(ClientError) {
        let hold = state.withLock { state in
            state.started += 1
            defer { state.holdNext = false }
            return state.holdNext
        }
        guard hold else { return }
        let outcome = await withCheckedContinuation { continuation in
            state.withLock { $0.held = continuation }
        }
        if let outcome { throw outcome }
    }

    func setUp(catchUp: Bool) async throws(ClientError) {
        state.withLock { $0.setUps += 1 }
    }
}
