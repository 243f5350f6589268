import Foundation
import Testing
@testable import ParleyPGP

/// `Certificate.revoked(by:)`: a revocation certificate Parley and GnuPG both take as final.
@Suite struct KeyRevocationTests {
    @Test func aRevokedGpgKeyIsRevokedAndCarriesNoSecret() throws {
        for name in ["ed.sec.asc", "rsa.sec.asc"] {
            let key = try Fixtures.certificate(name)
            let revoked = try key.revoked(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now)
            #expect(revoked.isRevoked(at: Fixtures.now))
            #expect(!revoked.isSecret)
            #expect(revoked.signingKeys(at: Fixtures.now).isEmpty)
            #expect(revoked.encryptionKeys(at: Fixtures.now).isEmpty)
            #expect(revoked.directSignatures.last?.type == .keyRevocation)
        }
    }

    @Test func theKeyMustBeUnlockedAndItsOwn() throws {
        let key = try Fixtures.certificate("ed.sec.asc")
        #expect(throws: PGPError.needsPassphrase) { try key.unlockedPrimaryKey(passphrases: []) }
        #expect(throws: PGPError.wrongPassphrase) { try key.unlockedPrimaryKey(passphrases: [Array("not it".utf8)]) }
        #expect(throws: PGPError.self) { try Fixtures.certificate("ed.pub.asc").unlockedPrimaryKey(passphrases: []) }
        let other = try Fixtures.certificate("rsa.sec.asc").unlockedPrimaryKey(passphrases: [Fixtures.passphrase])
        #expect(throws: PGPError.self) { try key.revoked(by: other, now: Fixtures.now) }
    }

    @Test func gpgSeesTheKeyRevoked() async throws {
        let gpg = try GPG()
        let key = try Fixtures.certificate("ed.sec.asc")
        let revoked = try key.revoked(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now)
        try await gpg(["--import"], input: Array(revoked.armored.utf8))
        let pub = try #require(KeyVectors.records(try await gpg(["--with-colons", "--list-keys", key.primaryKey.fingerprintHex]), "pub").first)
        #expect(pub[1] == "r")
    }
}
