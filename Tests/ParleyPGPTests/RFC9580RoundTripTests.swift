import Foundation
@testable import ParleyPGP
import ParleyTestSupport
import Testing

/// What ParleyPGP writes for RFC 9580: v6 keys, salted v6 signatures, SEIPD v2 to v6 recipients, chosen per recipient.
@Suite(.offThePool) struct RFC9580RoundTripTests {
    static let now: UInt32 = 1_800_000_000
    static let passphrase = Array("a long enough pass phrase".utf8)

    static func v6Key(locked: Bool = false) throws -> Certificate {
        try KeyGenerator.generateV6(userIDs: ["Alice <alice@example.org>"], passphrase: locked ? passphrase : nil, now: now)
    }

    @Test func generatedV6KeyHasTheRFCShape() throws {
        let key = try Self.v6Key()
        #expect(key.primaryKey.version == 6 && key.primaryKey.algorithm == .ed25519)
        #expect(key.subkeys.map(\.key.algorithm) == [.x25519] && key.subkeys[0].key.version == 6)
        #expect(key.primaryKey.fingerprint.count == 32)
        #expect(key.isUsable(at: Self.now))
        #expect(key.signingKeys(at: Self.now) == [key.primaryKey])
        #expect(key.encryptionKeys(at: Self.now) == [key.subkeys[0].key])
        #expect(key.directSignatures.count == 1 && key.directSignatures[0].version == 6 && key.directSignatures[0].salt.count == 32)
        // Written and read back, byte for byte, armored.
        let again = try Certificate.readAll(Array(key.armored.utf8))
        #expect(again.count == 1 && again[0].packets.encoded == key.packets.encoded)
        #expect(again[0].publicCertificate.isUsable(at: Self.now))
    }

    @Test func lockedV6KeyUsesArgon2AndOCB() throws {
        let key = try Self.v6Key(locked: true)
        let reread = try Certificate.readAll(key.packets.encoded)[0]
        for secret in reread.secretKeys {
            guard case .aead(.aes256, .ocb, let s2k, let nonce) = secret.protection, case .argon2(_, 3, 4, 16) = s2k.kind else {
                Issue.record("not AEAD + Argon2: \(secret.protection)")
                continue
            }
            #expect(nonce.count == 15)
            #expect(throws: PGPError.wrongPassphrase) { try secret.unlock(passphrase: Array("not the pass phrase".utf8)) }
            _ = try secret.unlock(passphrase: Self.passphrase)
        }
        // Re-locked under a new pass phrase, still AEAD.
        let changed = try reread.reprotected(oldPassphrases: [Self.passphrase], newPassphrase: Array("another long pass phrase".utf8))
        let changedAgain = try Certificate.readAll(changed.packets.encoded)[0]
        for secret in changedAgain.secretKeys { _ = try secret.unlock(passphrase: Array("another long pass phrase".utf8)) }
    }

    @Test func v6RecipientsGetSEIPDv2AndV4RecipientsV1() throws {
        let v6 = try Self.v6Key()
        let v4 = try KeyGenerator.generate(userIDs: ["Bob <bob@example.org>"], passphrase: nil, now: Self.now)
        let signer = try v6.secretKeys[0].unlock(passphrase: nil)
        let data = Array(repeating: Array("line of text\n".utf8), count: 20_000).flatMap { $0 }  // 260 KB: several chunks
        for (recipients, expectV2) in [([v6], true), ([v4], false), ([v6, v4], false)] {
            var encryptor = Encryptor(now: Self.now)
            encryptor.recipients = recipients.map(\.publicCertificate)
            encryptor.signers = [signer]
            let message = try encryptor.encrypt(data)
            let packets = try PacketParser.parse(message)
            let seipd = try #require(packets.last)
            #expect(seipd.body.first == (expectV2 ? 2 : 1))
            #expect(packets.dropLast().allSatisfy { $0.body.first == (expectV2 ? 6 : 3) })
            for recipient in recipients {
                var decryptor = Decryptor(now: Self.now)
                decryptor.keys = [recipient]
                decryptor.verifiers = [v6.publicCertificate]
                let result = try decryptor.decrypt(message)
                #expect(result.literal.data == data)
                #expect(result.verifications.count == 1 && result.verifications.allSatisfy(\.isGood))
                #expect(result.verifications.first?.signature.version == 6)
                // Streamed writer and reader agree with the in-memory ones.
                let streamedMessage = PGPMemoryOutput()
                try encryptor.encrypt(from: PGPMemoryInput(data), to: streamedMessage, armor: true)
                let output = PGPMemoryOutput()
                let streamed = try decryptor.decrypt(from: PGPMemoryInput(streamedMessage.bytes), to: output)
                #expect(output.bytes == data && streamed.verifications.allSatisfy(\.isGood))
            }
        }
    }

    @Test func passwordsInBothProfiles() throws {
        for profile in [Encryptor.Profile.rfc9580, .rfc4880, .byRecipients] {
            var encryptor = Encryptor(now: Self.now)
            encryptor.passwords = [Array("correct horse".utf8)]
            encryptor.profile = profile
            encryptor.compress = true
            let message = try encryptor.encrypt(Array("secret".utf8))
            let packets = try PacketParser.parse(message)
            #expect(packets[0].body.first == (profile == .rfc9580 ? 6 : 4))
            var decryptor = Decryptor(now: Self.now)
            decryptor.passwords = [Array("correct horse".utf8)]
            #expect(try decryptor.decrypt(message).literal.data == Array("secret".utf8))
            decryptor.passwords = [Array("wrong horse".utf8)]
            #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(message) }
        }
    }

    @Test func v6SignaturesDetachedCleartextAndInline() throws {
        let key = try Self.v6Key()
        let signer = try key.secretKeys[0].unlock(passphrase: nil)
        let data = Array("Signed by a v6 key.\n".utf8)
        let detached = try Signer.detached(data, signers: [signer], now: Self.now)
        let verifications = try Verification.detached(detached, data: data, certificates: [key.publicCertificate], now: Self.now)
        #expect(verifications.allSatisfy(\.isGood) && verifications.first?.signature.version == 6)
        #expect(try Verification.detached(detached, data: data + [0], certificates: [key.publicCertificate], now: Self.now).allSatisfy { !$0.isGood })
        let clear = try CleartextSignature.sign("Hello\n- dashes\n", signers: [signer], now: Self.now)
        #expect(try CleartextSignature.verify(clear, certificates: [key.publicCertificate], now: Self.now).verifications.allSatisfy(\.isGood))
        let output = PGPMemoryOutput()
        let streamed = try Verification.inline(from: PGPMemoryInput(Array(clear.utf8)), to: output, certificates: [key.publicCertificate], now: Self.now)
        #expect(streamed.count == 1 && streamed.allSatisfy(\.isGood))
        // A v6 signature claimed by a v4 key (same key material is impossible; a v4 key never verifies it).
        let v4 = try KeyGenerator.generate(userIDs: ["Bob <bob@example.org>"], passphrase: nil, now: Self.now)
        #expect(try Verification.detached(detached, data: data, certificates: [v4.publicCertificate], now: Self.now).allSatisfy { !$0.isGood })
    }
}

extension RFC9580RoundTripTests {
    /// RFC 9580 §5.2.3.10: a v6 key's flags come from its direct-key signature, even when a user ID certification
    /// carries none (as other implementations write them).
    @Test func v6FlagsComeFromTheDirectKeySignature() throws {
        let key = try Self.v6Key()
        let primary = try key.secretKeys[0].unlock(passphrase: nil)
        let value = Array("Flagless <f@example.org>".utf8)
        let bare = try Signature.create(type: .positiveCertification,
                                        over: Signature.certificationData(primary: key.primaryKey, userID: value),
                                        by: primary, hash: .sha512, time: Self.now)
        let certificate = Certificate(primaryKey: key.primaryKey, directSignatures: key.directSignatures,
                                      userIDs: [.init(value: value, signatures: [bare])], subkeys: key.subkeys, secretKeys: [])
        #expect(certificate.signingKeys(at: Self.now) == [key.primaryKey])
        #expect(certificate.encryptionKeys(at: Self.now) == [key.subkeys[0].key])
        #expect(certificate.validUserIDs(at: Self.now).map(\.userID) == ["Flagless <f@example.org>"])
    }
}
