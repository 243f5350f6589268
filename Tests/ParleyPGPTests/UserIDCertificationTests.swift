import Foundation
import Testing
@testable import ParleyPGP

/// Third-party certifications: GnuPG's validated by `hasUserID(_:certifiedByAnyOf:)`, Parley's checked by GnuPG.
@Suite struct UserIDCertificationTests {
    static let bob = "Bob Ed25519 <bob@example.org>"

    @Test func aGpgCertificationValidates() throws {
        let certified = try KeyVectors.certificate("ed.certified-by-rsa.pub.asc")
        let alice = try Fixtures.certificate("rsa.pub.asc")
        #expect(certified.hasUserID(Self.bob, certifiedByAnyOf: [alice], at: Fixtures.now))
        #expect(certified.hasUserID("BOB@example.org", certifiedByAnyOf: [alice], addrSpecOnly: true, at: Fixtures.now))
        #expect(!certified.hasUserID("bob@example.org", certifiedByAnyOf: [alice], at: Fixtures.now))
        #expect(!certified.hasUserID("Bob", certifiedByAnyOf: [alice], at: Fixtures.now))
        // Not before gpg made it.
        let made = try #require(certified.userIDs[0].signatures.filter { $0.issuerKeyID == alice.primaryKey.keyID }.compactMap(\.creationTime).first)
        #expect(!certified.hasUserID(Self.bob, certifiedByAnyOf: [alice], at: made - 1))
    }

    @Test func withoutACertificationOnlyTheKeyItselfVouches() throws {
        let bob = try Fixtures.certificate("ed.pub.asc")
        let alice = try Fixtures.certificate("rsa.pub.asc")
        #expect(!bob.hasUserID(Self.bob, certifiedByAnyOf: [alice], at: Fixtures.now))
        #expect(bob.hasUserID(Self.bob, certifiedByAnyOf: [bob], at: Fixtures.now))
    }

    @Test func aCertificationGpgRevokedNoLongerValidates() throws {
        let revoked = try KeyVectors.certificate("ed.certification-revoked.pub.asc")
        let alice = try Fixtures.certificate("rsa.pub.asc")
        #expect(revoked.userIDs[0].signatures.contains { $0.type == .certificationRevocation })
        #expect(!revoked.hasUserID(Self.bob, certifiedByAnyOf: [alice], at: Fixtures.now))
    }

    @Test func aRevokedAuthorityOrSubjectDoesNotValidate() throws {
        let certified = try KeyVectors.certificate("ed.certified-by-rsa.pub.asc")
        let aliceKey = try Fixtures.certificate("rsa.sec.asc")
        let alice = try aliceKey.unlockedPrimaryKey(passphrases: [Fixtures.passphrase])
        let revokedAlice = try aliceKey.revoked(by: alice, now: Fixtures.now)
        #expect(!certified.hasUserID(Self.bob, certifiedByAnyOf: [revokedAlice], at: Fixtures.now))
        #expect(throws: KeyMaintenanceError.self) { try revokedAlice.unlockedCertifyingKey(passphrases: [], now: Fixtures.now) }
        let bobKey = try Fixtures.certificate("ed.sec.asc")
        let revokedBob = try certified.merged(with: bobKey.revoked(by: bobKey.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now))
        #expect(!revokedBob.hasUserID(Self.bob, certifiedByAnyOf: [aliceKey.publicCertificate], at: Fixtures.now))
    }

    @Test func parleyCertifiesOnlyBoundUserIDsUnlessAskedTo() throws {
        let bob = try Fixtures.certificate("ed.pub.asc")
        let aliceKey = try Fixtures.certificate("rsa.sec.asc")
        let alice = try aliceKey.unlockedCertifyingKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)
        let certified = try bob.certified(userIDs: [Self.bob], by: alice, now: Fixtures.now)
        #expect(certified.hasUserID(Self.bob, certifiedByAnyOf: [aliceKey.publicCertificate], at: Fixtures.now))
        #expect(throws: KeyMaintenanceError.userIDNotFound("Bobby")) { try bob.certified(userIDs: ["Bobby"], by: alice, now: Fixtures.now) }
        let petName = try bob.certified(userIDs: ["Bobby"], by: alice, requireSelfSignature: false, now: Fixtures.now)
        #expect(petName.hasUserID("Bobby", certifiedByAnyOf: [aliceKey.publicCertificate], at: Fixtures.now))
        #expect(!petName.hasUserID("Bobby", certifiedByAnyOf: [bob], at: Fixtures.now))
        #expect(!certified.isSecret)
    }

    @Test func gpgChecksAParleyCertification() async throws {
        let gpg = try GPG()
        let aliceKey = try Fixtures.certificate("rsa.sec.asc")
        let alice = try aliceKey.unlockedCertifyingKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)
        let certified = try Fixtures.certificate("ed.pub.asc").certified(userIDs: [Self.bob], by: alice, now: Fixtures.now)
        try await gpg(["--import"], input: Array(aliceKey.publicCertificate.armored.utf8))
        try await gpg(["--import"], input: Array(certified.armored.utf8))
        let listing = try await gpg(["--with-colons", "--check-sigs", certified.primaryKey.fingerprintHex])
        let byAlice = KeyVectors.records(listing, "sig").filter { $0[4] == Substring(aliceKey.primaryKey.keyID.upperHex) }
        #expect(byAlice.count == 1)
        #expect(byAlice.first?[1] == "!")
        #expect(byAlice.first?[10] == "10x")
    }
}
