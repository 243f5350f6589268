import Foundation
import ParleyPGP
import ParleyTestSupport
import Testing

/// Every sample of RFC 9580 Appendix A read, verified or decrypted by ParleyPGP (vectors nobody here wrote).
@Suite(.offThePool) struct RFC9580AppendixTests {
    typealias V = RFC9580Vectors

    @Test func a3CertificateParsesAndValidates() throws {
        let certificate = try V.certificate("a3-v6-certificate")
        #expect(certificate.primaryKey.version == 6)
        #expect(certificate.primaryKey.algorithm == .ed25519)
        #expect(certificate.primaryKey.fingerprint.upperHex == V.primaryFingerprint)
        #expect(certificate.subkeys.map(\.key.fingerprint.upperHex) == [V.subkeyFingerprint])
        #expect(certificate.subkeys.first?.key.algorithm == .x25519)
        // The direct-key self-signature (salted, SHA-512) makes the key usable; the binding makes the subkey one.
        #expect(certificate.isUsable(at: V.now))
        #expect(certificate.signingKeys(at: V.now).map(\.fingerprint.upperHex) == [V.primaryFingerprint])
        #expect(certificate.encryptionKeys(at: V.now).map(\.fingerprint.upperHex) == [V.subkeyFingerprint])
        #expect(certificate.directSignatures.first?.salt.count == 32)
        // Written back byte for byte.
        let armor = try Armor.decode(String(decoding: V.bytes("a3-v6-certificate"), as: UTF8.self))
        #expect(certificate.packets.encoded == armor.data)
    }

    @Test func a4SecretKeyUnlocksAndMatchesTheCertificate() throws {
        let key = try V.certificate("a4-v6-secret-key")
        #expect(key.isSecret)
        #expect(key.primaryKey.fingerprint.upperHex == V.primaryFingerprint)
        #expect(key.publicCertificate.packets.encoded == (try V.certificate("a3-v6-certificate")).packets.encoded)
        for secret in key.secretKeys {
            #expect(!secret.isLocked)
            _ = try secret.unlock(passphrase: nil)
        }
        let armor = try Armor.decode(String(decoding: V.bytes("a4-v6-secret-key"), as: UTF8.self))
        #expect(key.packets.encoded == armor.data)
    }

    @Test func a5LockedKeyOpensWithArgon2AndOCB() throws {
        let locked = try V.certificate("a5-locked-v6-secret-key")
        let plain = try V.certificate("a4-v6-secret-key")
        #expect(locked.primaryKey == plain.primaryKey)
        for (index, secret) in locked.secretKeys.enumerated() {
            guard case .aead(let cipher, let mode, let s2k, _) = secret.protection else {
                Issue.record("expected AEAD protection")
                continue
            }
            #expect(cipher == .aes256 && mode == .ocb)
            guard case .argon2(_, 1, 4, 21) = s2k.kind else {
                Issue.record("expected Argon2 t=1 p=4 m=21")
                continue
            }
            #expect(throws: PGPError.needsPassphrase) { try secret.unlock(passphrase: nil) }
            let unlocked = try secret.unlock(passphrase: V.lockedKeyPassphrase)
            let same = try plain.secretKeys[index].unlock(passphrase: nil)
            #expect(unlocked.publicKey == same.publicKey)
        }
        // One wrong pass phrase (2 GiB of Argon2 each, so once is enough).
        #expect(throws: PGPError.wrongPassphrase) { try locked.secretKeys[1].unlock(passphrase: Array("correct horse battery stapler".utf8)) }
    }

    @Test func a6CleartextSignatureVerifies() throws {
        let certificate = try V.certificate("a3-v6-certificate")
        let message = String(decoding: try V.bytes("a6-cleartext-signed"), as: UTF8.self)
        // The signed text ends with an empty line (its CRLF is hashed: A.6's dump ends 0d 0a before the trailer).
        let expected = "What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n\n"
        let (text, verifications) = try CleartextSignature.verify(message, certificates: [certificate], now: V.now)
        #expect(text == expected)
        #expect(verifications.count == 1 && verifications.allSatisfy(\.isGood))
        #expect(verifications.first?.signingKeyFingerprint?.upperHex == V.primaryFingerprint)
        // Streamed, through the same path `parley sop inline-verify` takes.
        let output = PGPMemoryOutput()
        let streamed = try Verification.inline(from: PGPMemoryInput(Array(message.utf8)), to: output, certificates: [certificate], now: V.now)
        #expect(streamed.count == 1 && streamed.allSatisfy(\.isGood))
        #expect(String(decoding: output.bytes, as: UTF8.self) == expected)
        // A changed word fails.
        let altered = message.replacingOccurrences(of: "tofu", with: "tufo")
        #expect(try CleartextSignature.verify(altered, certificates: [certificate], now: V.now).verifications.allSatisfy { !$0.isGood })
    }

    @Test func a7InlineSignedMessageVerifies() throws {
        let certificate = try V.certificate("a3-v6-certificate")
        let output = PGPMemoryOutput()
        let verifications = try Verification.inline(from: PGPMemoryInput(V.bytes("a7-inline-signed")), to: output,
                                                    certificates: [certificate], now: V.now)
        #expect(verifications.count == 1 && verifications.allSatisfy(\.isGood))
        #expect(String(decoding: output.bytes, as: UTF8.self) == "What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n")
        // The in-memory reader, not strict (a signed message is not an encrypted one).
        var decryptor = Decryptor(now: V.now)
        decryptor.strict = false
        decryptor.verifiers = [certificate]
        #expect(try decryptor.decrypt(V.bytes("a7-inline-signed")).verifications.allSatisfy(\.isGood))
    }

    @Test func a8X25519OCBMessageDecrypts() throws {
        var decryptor = Decryptor(now: V.now)
        decryptor.keys = [try V.certificate("a4-v6-secret-key")]
        let message = try V.bytes("a8-x25519-aead-ocb")
        let result = try decryptor.decrypt(message)
        #expect(result.literal.data == V.hello)
        #expect(result.sessionKey?.key == [UInt8](hex: "dd708f6fa1ed65114d68d2343e7c2f1d"))
        #expect(result.sessionKey?.algorithm == .aes128)
        let output = PGPMemoryOutput()
        let streamed = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        #expect(output.bytes == V.hello && streamed.sessionKey == result.sessionKey)
        // The locked key (A.5) opens it too.
        decryptor.keys = [try V.certificate("a5-locked-v6-secret-key")]
        decryptor.keyPassphrases = [V.lockedKeyPassphrase]
        #expect(try decryptor.decrypt(message).literal.data == V.hello)
    }

    @Test(arguments: [
        ("a9-aead-eax", "3881bafe985412459b86c36f98cb9a5e"),
        ("a10-aead-ocb", "28e79ab82397d3c63de24ac217d7b791"),
        ("a11-aead-gcm", "1936fc8568980274bb900d8319360c77"),
    ])
    func aeadPasswordMessagesDecrypt(name: String, sessionKey: String) throws {
        var decryptor = Decryptor(now: V.now)
        decryptor.passwords = [V.password]
        let message = try V.bytes(name)
        let result = try decryptor.decrypt(message)
        #expect(result.literal.data == V.hello)
        #expect(result.sessionKey?.key == [UInt8](hex: sessionKey))
        let output = PGPMemoryOutput()
        _ = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        #expect(output.bytes == V.hello)
        // The session key alone opens it (sop decrypt --with-session-key).
        var bySessionKey = Decryptor(now: V.now)
        bySessionKey.sessionKeys = [try #require(result.sessionKey)]
        #expect(try bySessionKey.decrypt(message).literal.data == V.hello)
        decryptor.passwords = [Array("passw0rd".utf8)]
        #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(message) }
    }

    @Test(arguments: [
        ("a12-argon2-aes128", "01FE16BBACFD1E7B78EF3B865187374F"),
        ("a12-argon2-aes192", "27006DAE68E509022CE45A14E569E91001C2955AF8DFE194"),
        ("a12-argon2-aes256", "BBEDA55B9AAE63DAC45D4F49D89DACF4AF37FEFC13BAB2F1F8E18FB74580D8B0"),
    ])
    func argon2PasswordMessagesDecrypt(name: String, sessionKey: String) throws {
        var decryptor = Decryptor(now: V.now)
        decryptor.passwords = [V.password]
        let result = try decryptor.decrypt(V.bytes(name))
        #expect(result.literal.data == V.hello)
        #expect(result.sessionKey?.key.upperHex == sessionKey)
    }
}
