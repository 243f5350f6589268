import Testing
@testable import ParleyPGP

/// Known-answer tests on keys and messages GnuPG 2.2 made once (Vectors/gpg); no gpg needed.
@Suite struct GPGFixtureTests {
    static let plain = "Hello from GnuPG.\nSecond line.\n"

    @Test(arguments: ["rsa", "ed"])
    func readsCertificatesAndFingerprints(_ who: String) throws {
        let cert = try Fixtures.certificate("\(who).pub.asc")
        #expect(cert.fingerprint.upperHex == (try Fixtures.text("\(who).fpr")))
        #expect(cert.primaryKey.keyID == Array(cert.fingerprint.suffix(8)))
        let now = Fixtures.now
        let userIDs = cert.validUserIDs(at: now).map(\.userID)
        #expect(userIDs == [who == "rsa" ? "Alice RSA <alice@example.org>" : "Bob Ed25519 <bob@example.org>"])
        #expect(cert.isUsable(at: now))
        #expect(!cert.isRevoked(at: now))
        #expect(cert.expiry(at: now) == nil)
        #expect(cert.signingKeys(at: now) == [cert.primaryKey])
        // Both keys carry two encryption subkeys; the newest comes first.
        let encryption = cert.encryptionKeys(at: now)
        #expect(!encryption.isEmpty)
        #expect(encryption.allSatisfy { $0 != cert.primaryKey && $0.canEncrypt })
        #expect(encryption.first?.created == encryption.map(\.created).max())
        #expect(!cert.isSecret)
        // Nothing is valid before the key existed.
        #expect(cert.encryptionKeys(at: cert.primaryKey.created - 1).isEmpty)
    }

    @Test(arguments: ["rsa", "ed"])
    func unlocksGpgsDefaultSecretKeyProtection(_ who: String) throws {
        let key = try Fixtures.certificate("\(who).sec.asc")
        #expect(key.isSecret)
        #expect(key.fingerprint.upperHex == (try Fixtures.text("\(who).fpr")))
        for secret in key.secretKeys {
            guard case .encrypted(let cipher, let s2k, _, let sha1Check) = secret.protection else {
                Issue.record("gpg exports protected keys")
                continue
            }
            #expect(cipher == .aes128)
            #expect(s2k.hash == .sha1)
            #expect(sha1Check)
            #expect(throws: PGPError.needsPassphrase) { try secret.unlock(passphrase: nil) }
            #expect(throws: PGPError.wrongPassphrase) { try secret.unlock(passphrase: Array("wrong".utf8)) }
            _ = try secret.unlock(passphrase: Fixtures.passphrase)
        }
        #expect(key.publicCertificate.packets.encoded == (try Fixtures.certificate("\(who).pub.asc")).packets.encoded)
    }

    @Test(arguments: ["rsa.msg.gpg", "ed.msg.gpg", "ed.zip.msg.gpg", "ed.zlib.msg.gpg", "ed.uncompressed.msg.gpg"])
    func decryptsGpgMessages(_ name: String) throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate(name.hasPrefix("rsa") ? "rsa.sec.asc" : "ed.sec.asc")]
        #expect(throws: PGPError.needsPassphrase) { try decryptor.decrypt(Fixtures.bytes(name)) }
        decryptor.keyPassphrases = [Array("wrong".utf8)]
        #expect(throws: PGPError.wrongPassphrase) { try decryptor.decrypt(Fixtures.bytes(name)) }
        decryptor.keyPassphrases = [Array("wrong".utf8), Fixtures.passphrase]
        let result = try decryptor.decrypt(Fixtures.bytes(name))
        #expect(String(decoding: result.literal.data, as: UTF8.self) == Self.plain)
        #expect(String(decoding: result.literal.filename, as: UTF8.self) == "plain.txt")
        #expect(result.verifications.isEmpty)
        // The other person's key cannot open it.
        decryptor.keys = [try Fixtures.certificate(name.hasPrefix("rsa") ? "ed.sec.asc" : "rsa.sec.asc")]
        #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(Fixtures.bytes(name)) }
    }

    @Test func decryptsPasswordMessages() throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.passwords = [Array("not it".utf8)]
        #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(Fixtures.bytes("password.msg.gpg")) }
        decryptor.passwords.append(Array("password only".utf8))
        let result = try decryptor.decrypt(Fixtures.bytes("password.msg.gpg"))
        #expect(String(decoding: result.literal.data, as: UTF8.self) == Self.plain)
        #expect(result.sessionKey?.algorithm == .aes256)
    }

    @Test(arguments: ["rsa", "ed"])
    func verifiesSignedAndEncryptedMessages(_ who: String) throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("\(who).sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        let cert = try Fixtures.certificate("\(who).pub.asc")
        decryptor.verifiers = [cert]
        let result = try decryptor.decrypt(Fixtures.bytes("\(who).signed.msg.asc"))
        #expect(String(decoding: result.literal.data, as: UTF8.self) == Self.plain)
        #expect(result.verifications.count == 1)
        #expect(result.verifications.first?.isGood == true)
        #expect(result.verifications.first?.certificateFingerprint == cert.fingerprint)
        // Without the signer's certificate, the signature is reported, not good.
        decryptor.verifiers = []
        #expect(try decryptor.decrypt(Fixtures.bytes("\(who).signed.msg.asc")).verifications.first?.isGood == false)
    }

    @Test(arguments: ["rsa", "ed"])
    func verifiesDetachedAndInlineSignatures(_ who: String) throws {
        let cert = try Fixtures.certificate("\(who).pub.asc")
        let other = try Fixtures.certificate(who == "rsa" ? "ed.pub.asc" : "rsa.pub.asc")
        let data = try Fixtures.bytes("plain.txt")
        let good = try Verification.detached(Fixtures.bytes("\(who).detached.sig.asc"), data: data, certificates: [other, cert], now: Fixtures.now)
        #expect(good.map(\.isGood) == [true])
        var altered = data
        altered[0] ^= 1
        let bad = try Verification.detached(Fixtures.bytes("\(who).detached.sig.asc"), data: altered, certificates: [cert], now: Fixtures.now)
        #expect(bad.map(\.isGood) == [false])
        #expect(try Verification.detached(Fixtures.bytes("\(who).detached.sig.asc"), data: data, certificates: [other], now: Fixtures.now).map(\.isGood) == [false])
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.verifiers = [cert]
        decryptor.strict = false   // signed, not encrypted: what inline verification reads
        let inline = try decryptor.decrypt(Fixtures.bytes("\(who).signed.gpg"))
        #expect(inline.literal.data == data)
        #expect(inline.verifications.map(\.isGood) == [true])
        #expect(inline.sessionKey == nil)
    }
}
