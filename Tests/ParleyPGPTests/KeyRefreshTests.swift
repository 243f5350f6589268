import Foundation
import Testing
@testable import ParleyPGP

/// `Certificate.refreshed(by:now:)` (`sop update-key`) on GnuPG keys: what is due is renewed, the rest kept.
@Suite struct KeyRefreshTests {
    static let day: UInt32 = 86_400

    @Test func anExpiringKeyAndSubkeyAreExtendedByTheirLifetime() throws {
        let key = try KeyVectors.certificate("expiring.sec.asc")
        let created = key.primaryKey.created
        let now = created + 20 * Self.day
        #expect(key.expiry(at: now) == created + 30 * Self.day)
        let refreshed = try key.refreshed(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: now)
        #expect(refreshed.expiry(at: now) == now + 30 * Self.day)
        #expect(refreshed.isUsable(at: created + 40 * Self.day))
        #expect(!refreshed.encryptionKeys(at: created + 40 * Self.day).isEmpty)
        #expect(key.encryptionKeys(at: created + 40 * Self.day).isEmpty)
        // The secret parts are untouched (still locked with the old pass phrase).
        #expect(refreshed.secretKeys.map(\.isLocked) == [true, true])
        #expect(refreshed.userIDs[0].signatures.count == 2)
    }

    @Test func sha1SelfSignaturesAreRemadeWithSHA512() throws {
        let key = try KeyVectors.certificate("sha1.sec.asc")
        #expect(key.primarySelfSignature(at: Fixtures.now)?.hashAlgorithm == .sha1)
        let now = Fixtures.now
        let refreshed = try key.refreshed(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: now)
        let selfSignature = try #require(refreshed.primarySelfSignature(at: now))
        #expect(selfSignature.hashAlgorithm == .sha512)
        #expect(selfSignature.keyFlags == key.primarySelfSignature(at: now)?.keyFlags)
        #expect(refreshed.expiry(at: now) == nil)
        #expect(refreshed.subkeys[0].signatures.last?.hashAlgorithm == .sha512)
        #expect(refreshed.encryptionKeys(at: now) == key.encryptionKeys(at: now))
    }

    @Test func aCurrentKeyIsLeftAsItWas() throws {
        for name in ["ed.sec.asc", "rsa.sec.asc"] {
            let key = try Fixtures.certificate(name)
            let refreshed = try key.refreshed(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now)
            #expect(refreshed.packets.encoded == key.packets.encoded)
        }
        let fresh = try KeyGenerator.generate(userIDs: ["New <new@example.org>"], passphrase: nil, now: Fixtures.now)
        #expect(try fresh.refreshed(by: fresh.unlockedPrimaryKey(passphrases: []), now: Fixtures.now).packets.encoded == fresh.packets.encoded)
    }

    @Test func gpgReadsTheRenewedExpiryAndSignatures() async throws {
        let gpg = try GPG()
        let key = try KeyVectors.certificate("expiring.sec.asc")
        let now = Fixtures.now
        let refreshed = try key.refreshed(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: now)
        try await gpg(["--import"], input: Array(refreshed.publicCertificate.armored.utf8))
        let listing = try await gpg(["--with-colons", "--check-sigs", key.primaryKey.fingerprintHex])
        let pub = try #require(KeyVectors.records(listing, "pub").first)
        #expect(pub[6] == Substring(String(now + 30 * Self.day)))
        #expect(pub[1] != "e")
        let sub = try #require(KeyVectors.records(listing, "sub").first)
        #expect(sub[6] == Substring(String(now + 30 * Self.day)))
        #expect(KeyVectors.records(listing, "sig").allSatisfy { $0[1] == "!" })
    }
}
