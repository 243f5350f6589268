import Foundation
import Testing
@testable import ParleyPGP

/// `Certificate.merged(with:)` and `merge(_:with:)` on copies of one key that GnuPG made.
@Suite struct CertificateMergeTests {
    @Test func mergeTakesTheUserIDAndSubkeyAnotherCopyAdds() throws {
        let base = try Fixtures.certificate("ed.pub.asc")
        let extra = try KeyVectors.certificate("ed.extra.pub.asc")
        let merged = try base.merged(with: extra)
        #expect(merged.userIDs.count == 2)
        #expect(base.subkeys.count == 2)
        #expect(merged.subkeys.count == 3)
        #expect(Set(merged.validUserIDs(at: Fixtures.now).map(\.userID)) == ["Bob Ed25519 <bob@example.org>", "Bob at work <bob@work.example>"])
        // The new signing subkey came with its binding and back-signature: it is usable.
        #expect(merged.signingKeys(at: Fixtures.now).contains(try #require(extra.subkeys.last).key))
    }

    @Test func mergingAgainChangesNothing() throws {
        let base = try Fixtures.certificate("ed.pub.asc")
        let extra = try KeyVectors.certificate("ed.extra.pub.asc")
        let merged = try base.merged(with: extra)
        #expect(try merged.merged(with: extra).packets.encoded == merged.packets.encoded)
        #expect(try merged.merged(with: base).packets.encoded == merged.packets.encoded)
        #expect(try base.merged(with: base).packets.encoded == base.packets.encoded)
        // The same signature with another unhashed area (an issuer hint dropped) is still one signature.
        let signature = base.userIDs[0].signatures[0]
        let bare = Signature(type: signature.type, publicKeyAlgorithm: signature.publicKeyAlgorithm, hashAlgorithm: signature.hashAlgorithm,
                             hashed: signature.hashed, unhashed: [], digestPrefix: signature.digestPrefix, mpis: signature.mpis,
                             hashedHeader: signature.hashedHeader)
        #expect(Certificate.union([signature], [bare]).count == 1)
    }

    @Test func certificatesOfOtherKeysAreNotMerged() throws {
        let ed = try Fixtures.certificate("ed.pub.asc")
        let rsa = try Fixtures.certificate("rsa.pub.asc")
        #expect(throws: PGPError.self) { try ed.merged(with: rsa) }
        let merged = try Certificate.merge([ed, ed, rsa], with: [KeyVectors.certificate("ed.extra.pub.asc")])
        #expect(merged.map(\.fingerprint) == [ed.fingerprint, rsa.fingerprint])
        #expect(merged[0].userIDs.count == 2)
        #expect(merged[1].packets.encoded == rsa.packets.encoded)
    }

    @Test func aMergedRevocationRevokes() throws {
        let key = try Fixtures.certificate("ed.sec.asc")
        let revocation = try key.revoked(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now)
        let merged = try Certificate.merge([Fixtures.certificate("ed.pub.asc")], with: [revocation])
        #expect(merged[0].isRevoked(at: Fixtures.now))
    }

    @Test func gpgImportsEveryUserIDAndSubkeyOfAMergedCertificate() async throws {
        let gpg = try GPG()
        let merged = try Fixtures.certificate("ed.pub.asc").merged(with: KeyVectors.certificate("ed.extra.pub.asc"))
        try await gpg(["--import"], input: Array(merged.armored.utf8))
        let listing = try await gpg(["--with-colons", "--check-sigs", merged.primaryKey.fingerprintHex])
        #expect(KeyVectors.records(listing, "uid").count == 2)
        #expect(KeyVectors.records(listing, "sub").count == 3)
        // Every self-signature checks ("!"): nothing was garbled on the way.
        let signatures = KeyVectors.records(listing, "sig")
        #expect(signatures.count == 5)
        #expect(signatures.allSatisfy { $0[1] == "!" })
    }
}
