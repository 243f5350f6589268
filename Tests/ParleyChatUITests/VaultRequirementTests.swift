import Foundation
import ParleyChatUI
import ParleyClient
import Testing

/// What a vault needs before it opens, decided the same way for the command line and the locked chat screen.
@Suite struct VaultRequirementTests {
    @Test func aPINVaultNeedsItsPINAndAPlainOneNothing() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-vault-need-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let server = ServerAddress(host: "127.0.0.1", port: 1)
        let locked = try ParleyClient.create(home: home, email: "ann@example.org", displayName: "Ann", server: server, pin: "1234")
        let plain = try ParleyClient.create(home: home, email: "bob@example.org", displayName: "Bob", server: server, pin: nil)
        #expect(VaultRequirement.of(locked.directory) == .pin)
        #expect(VaultRequirement.of(plain.directory) == .nothing)
    }

    @Test func noVaultOrGarbageNeedsNothingAndNeverCrashes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-vault-garbage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(VaultRequirement.of(directory) == .nothing)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["mainkey", "mainkey.pin", "mainkey.hw", "\u{1B}[2J"] {
            try Data((0..<4096).map { _ in UInt8.random(in: 0...255) }).write(to: directory.appendingPathComponent(name))
        }
        // Whatever the files hold, the answer is one of the cases: no trap, no hang.
        _ = VaultRequirement.of(directory)
    }
}
