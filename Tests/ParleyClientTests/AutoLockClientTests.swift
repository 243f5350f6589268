import Foundation
import ParleyClient
import ParleyVault
import ParleyTestSupport
import Testing

@Suite("Client: autolock and the PIN", .offThePool)
struct AutoLockClientTests {
    @Test func idleClientLocksAndThePINUnlocksIt() async throws {
        let harness = try await ClientHarness.start()
        let bob = try await harness.person("bob")
        let clock = ManualVaultClock()
        let ann = try await harness.person("ann", pin: "2468", autolockAfter: 60, dependencies: ClientDependencies(vaultClock: clock))
        let chat = try await ann.startConversation(with: "bob@example.org")
        let sent = try #require(try await ann.send("before the lock", to: chat.id).message)
        clock.advance(59)
        #expect(!ann.vault.isLocked)
        clock.advance(1)
        #expect(ann.vault.isLocked, "60 s without use locks the vault")
        // Locked, the client cannot store what arrives: it stays on the server until unlocked.
        let whileLocked = try #require(try await bob.send("while ann is locked", to: chat.id).message)
        #expect(throws: ClientError.vault(.locked)) { try ann.history.messages(in: chat.id) }
        await #expect(throws: ClientError.self) { try await ann.vault.unlock(pin: "0000") }
        #expect(ann.vault.isLocked)
        try await ann.vault.unlock(pin: "2468")
        #expect(try ann.history.message(sent.id)?.text == "before the lock")
        // Setting the wall clock back (to dodge the timeout) is caught and locks at once.
        // (Whoever touches the vault first — this test, the sweeper or a notification — sees clockTampered;
        // ParleyVaultTests pin that error. Here what matters is that the vault is locked at once.)
        clock.setWall(by: -3600)
        #expect(ann.vault.isLocked, "setting the wall clock back locks the vault at once")
        #expect(throws: ClientError.self) { try ann.history.messages(in: chat.id) }
        try await ann.vault.unlock(pin: "2468")
        _ = try await ann.sync()
        #expect(try ann.history.message(whileLocked.id)?.text == "while ann is locked")
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func wrongPINsCountDownAndTheTenthWipes() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-wipe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try ParleyClient.create(home: home, email: "ann@example.org", displayName: "Ann",
                                    server: ServerAddress(host: "127.0.0.1", port: 1), pin: "2468")
        for left in (1...9).reversed() {
            #expect(throws: ClientError.vault(.wrongPIN(attemptsLeft: left))) {
                try ParleyClient.open(home: home, email: "ann@example.org", pin: "1111")
            }
        }
        #expect(throws: ClientError.vault(.wiped)) { try ParleyClient.open(home: home, email: "ann@example.org", pin: "1111") }
        #expect(AccountHome.accounts(in: home).isEmpty)
        #expect(throws: ClientError.noAccount("ann@example.org")) { try ParleyClient.open(home: home, email: "ann@example.org", pin: "2468") }
    }
}
