import Foundation
import Testing
@testable import ParleyPGP

/// Expiry and revocation as GnuPG writes them: Parley must stop using what gpg says is dead.
@Suite(.serialized) struct GPGKeyValidityTests {
    static let day: UInt32 = 86_400

    static func certificate(_ gpg: GPG, _ fpr: String) async throws -> Certificate {
        let all = try await Certificate.readAll(gpg(["--export", fpr]))
        #expect(all.count == 1)
        return try #require(all.first)
    }

    @Test func expiryOfPrimaryAndSubkeyFollowsGpg() async throws {
        let gpg = try GPG()
        let now = UInt32(Date().timeIntervalSince1970)
        try await gpg(["--quick-gen-key", "Exp <exp@example.org>", "future-default", "default", "never"])
        let fpr = try await gpg.fingerprint("exp@example.org")
        var cert = try await Self.certificate(gpg, fpr)
        let sub = try #require(cert.encryptionKeys(at: now + 600).first)
        // Subkey expires in one day: gone after two, primary still fine.
        try await gpg(["--quick-set-expire", fpr, "1d", sub.fingerprintHex])
        cert = try await Self.certificate(gpg, fpr)
        #expect(cert.encryptionKeys(at: now + 600) == [sub])
        #expect(cert.encryptionKeys(at: now + 2 * Self.day).isEmpty)
        #expect(cert.isUsable(at: now + 2 * Self.day))
        var encryptor = Encryptor(now: now + 2 * Self.day)
        encryptor.recipients = [cert]
        #expect(throws: PGPError.self) { try encryptor.encrypt([1, 2, 3]) }
        // Primary expires in three days: the whole certificate is unusable after.
        // gpg counts the three days from when it runs, which on a loaded machine is minutes after `now`.
        let before = UInt32(Date().timeIntervalSince1970)
        try await gpg(["--quick-set-expire", fpr, "3d"])
        let after = UInt32(Date().timeIntervalSince1970)
        cert = try await Self.certificate(gpg, fpr)
        let expiry = try #require(cert.expiry(at: now + 600))
        #expect(expiry >= before + 3 * Self.day - 60 && expiry <= after + 3 * Self.day + 60)
        #expect(cert.isUsable(at: now + 2 * Self.day))
        #expect(!cert.isUsable(at: now + 4 * Self.day))
        #expect(cert.signingKeys(at: now + 4 * Self.day).isEmpty)
    }

    @Test func revokedCertificateAndUserIDAreNotUsed() async throws {
        let gpg = try GPG()
        let now = UInt32(Date().timeIntervalSince1970)
        try await gpg(["--quick-gen-key", "Rev <rev@example.org>", "future-default", "default", "never"])
        let fpr = try await gpg.fingerprint("rev@example.org")
        try await gpg(["--quick-add-uid", fpr, "Old <old@example.org>"])
        #expect(try await Set(Self.certificate(gpg, fpr).validUserIDs(at: now + 600).map(\.userID)) == ["Rev <rev@example.org>", "Old <old@example.org>"])
        try await gpg(["--quick-revoke-uid", fpr, "Old <old@example.org>"])
        var cert = try await Self.certificate(gpg, fpr)
        #expect(cert.validUserIDs(at: now + 600).map(\.userID) == ["Rev <rev@example.org>"])
        #expect(cert.isUsable(at: now + 600))

        // gpg stores a ready revocation certificate, defused with a leading colon.
        let stored = try String(contentsOf: gpg.home.appendingPathComponent("openpgp-revocs.d/\(fpr).rev"), encoding: .utf8)
        try await gpg(["--import"], input: Array(stored.replacingOccurrences(of: ":-----BEGIN", with: "-----BEGIN").utf8))
        cert = try await Self.certificate(gpg, fpr)
        #expect(cert.isRevoked(at: now + 600))
        #expect(!cert.isUsable(at: now + 600))
        #expect(cert.encryptionKeys(at: now + 600).isEmpty)
        #expect(cert.signingKeys(at: now + 600).isEmpty)
    }

    @Test func forgedBindingsAndSignaturesAreIgnored() async throws {
        let cert = try Fixtures.certificate("ed.pub.asc")
        let other = try Fixtures.certificate("rsa.pub.asc")
        let now = Fixtures.now
        // Move the other certificate's subkeys under this primary: their bindings no longer verify.
        let grafted = Certificate(primaryKey: cert.primaryKey, directSignatures: [], userIDs: cert.userIDs,
                                  subkeys: other.subkeys, secretKeys: [])
        #expect(grafted.encryptionKeys(at: now).isEmpty)
        // A user ID whose self-signature belongs to another user ID is not valid.
        let swapped = Certificate(primaryKey: cert.primaryKey, directSignatures: [],
                                  userIDs: [.init(value: Array("Mallory <m@example.org>".utf8), signatures: cert.userIDs[0].signatures)],
                                  subkeys: cert.subkeys, secretKeys: [])
        #expect(swapped.validUserIDs(at: now).isEmpty)
        #expect(!swapped.isUsable(at: now))
    }
}
