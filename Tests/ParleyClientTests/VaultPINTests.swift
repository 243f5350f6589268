import Foundation
import ParleyClient
import ParleyVault
import ParleyTestSupport
import Testing

@Suite("Client: vault PIN", .offThePool)
struct VaultPINTests {
    @Test func changedPINOpensAndOldOneIsRefused() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let client = try ParleyClient.create(
            home: home, email: "ann@example.org", displayName: "Ann",
            server: ServerAddress(host: "127.0.0.1", port: 1), pin: "2468")
        try await client.vault.changePIN(current: "2468", new: "1357")
        await #expect(throws: ClientError.vault(.wrongPIN(attemptsLeft: 9))) { try await client.vault.unlock(pin: "2468") }
        try await client.vault.unlock(pin: "1357")
        // Closed, the account opens again in a new client, with the new PIN only.
        await client.close()
        #expect(throws: ClientError.vault(.wrongPIN(attemptsLeft: 9))) { try ParleyClient.open(home: home, email: "ann@example.org", pin: "2468") }
        let reopened = try ParleyClient.open(home: home, email: "ann@example.org", pin: "1357")
        #expect(reopened.email == "ann@example.org")
    }
}
