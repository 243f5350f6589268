import Foundation
@testable import ParleyPGP
import Testing

/// What ParleyPGP writes with Ed448 and X448 (RFC 9580 algorithms 28 and 26): generated v6 keys, locked with Argon2
/// and AES-OCB, SHA-512 signatures, messages to X448 keys (v6 and v3 PKESK), also to Sequoia's key; and what it refuses.
@Suite struct RFC9580Curve448Tests {
    static let now: UInt32 = 1_800_000_000
    static let passphrase = Array("a long enough pass phrase".utf8)

    static func key(locked: Bool = false) throws -> Certificate {
        try KeyGenerator.generateV6(userIDs: ["Carol <carol@example.org>"], passphrase: locked ? passphrase : nil, now: now, curve: .cv448)
    }

    @Test("a generated Cv448 key: v6 Ed448 primary, X448 subkey, SHA-512 self-signatures, written and read back byte for byte")
    func generatedKeyShape() throws {
        let key = try Self.key()
        #expect(key.primaryKey.version == 6 && key.primaryKey.algorithm == .ed448)
        #expect(key.primaryKey.body.count == 1 + 4 + 1 + 4 + 57)
        #expect(key.subkeys.map(\.key.algorithm) == [.x448] && key.subkeys[0].key.body.count == 1 + 4 + 1 + 4 + 56)
        #expect(key.isUsable(at: Self.now))
        #expect(key.signingKeys(at: Self.now) == [key.primaryKey] && key.encryptionKeys(at: Self.now) == [key.subkeys[0].key])
        let signatures = key.directSignatures + key.userIDs.flatMap(\.signatures) + key.subkeys.flatMap(\.signatures)
        #expect(signatures.allSatisfy { $0.hashAlgorithm == .sha512 && $0.mpis.map(\.count) == [114] && $0.salt.count == 32 })
        let again = try Certificate.readAll(Array(key.armored.utf8))
        #expect(again.count == 1 && again[0].packets.encoded == key.packets.encoded)
        #expect(again[0].publicCertificate.isUsable(at: Self.now))
        // The default stays Ed25519 + X25519.
        let standard = try KeyGenerator.generateV6(userIDs: ["D <d@example.org>"], passphrase: nil, now: Self.now)
        #expect(standard.primaryKey.algorithm == .ed25519 && standard.subkeys.map(\.key.algorithm) == [.x25519])
    }

    @Test("a locked Cv448 key uses Argon2 and AES-256-OCB, opens with its pass phrase only, and re-locks")
    func lockedKey() throws {
        let key = try Certificate.readAll(Self.key(locked: true).packets.encoded)[0]
        for secret in key.secretKeys {
            guard case .aead(.aes256, .ocb, let s2k, _) = secret.protection, case .argon2 = s2k.kind else {
                Issue.record("not AEAD + Argon2: \(secret.protection)")
                continue
            }
            #expect(throws: PGPError.wrongPassphrase) { try secret.unlock(passphrase: Array("not the pass phrase".utf8)) }
            #expect(throws: PGPError.needsPassphrase) { try secret.unlock(passphrase: nil) }
            let unlocked = try secret.unlock(passphrase: Self.passphrase)
            #expect(unlocked.secretMPIs.count == (secret.publicKey.algorithm == .ed448 ? 57 : 56))
        }
        let changed = try key.reprotected(oldPassphrases: [Self.passphrase], newPassphrase: Array("another long pass phrase".utf8))
        for secret in try Certificate.readAll(changed.packets.encoded)[0].secretKeys {
            _ = try secret.unlock(passphrase: Array("another long pass phrase".utf8))
        }
    }

    @Test("Parley encrypts to X448 and signs with Ed448 (SEIPD v2 + v6 PKESK, and v1 + v3 PKESK), whole and streamed")
    func encryptAndSign() throws {
        let key = try Self.key(locked: true)
        let signer = try key.unlockedSigningKey(passphrases: [Self.passphrase], now: Self.now)
        let data = Array(repeating: Array("Ed448 and X448\n".utf8), count: 6_000).flatMap { $0 }
        for profile in [Encryptor.Profile.byRecipients, .rfc4880] {
            var encryptor = Encryptor(now: Self.now)
            encryptor.profile = profile
            encryptor.recipients = [key.publicCertificate]
            encryptor.signers = [signer]
            let message = try encryptor.encrypt(data)
            let pkesk = try PKESK(packetBody: #require(PacketParser.parse(message).first).body)
            #expect(pkesk.algorithm == .x448 && pkesk.version == (profile == .rfc4880 ? 3 : 6))
            var decryptor = Decryptor(now: Self.now)
            decryptor.keys = [key]
            decryptor.keyPassphrases = [Self.passphrase]
            decryptor.verifiers = [key.publicCertificate]
            let result = try decryptor.decrypt(message)
            #expect(result.literal.data == data)
            #expect(result.verifications.count == 1 && result.verifications.allSatisfy(\.isGood))
            #expect(result.verifications.first?.signature.hashAlgorithm == .sha512)
            let output = PGPMemoryOutput()
            let streamed = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
            #expect(output.bytes == data && streamed.verifications.allSatisfy(\.isGood))
        }
    }

    @Test("Parley's message to Sequoia's X448 key opens with Sequoia's secret key; another Cv448 key opens nothing")
    func toSequoiaAndWrongKey() throws {
        let sequoia = try SequoiaCv448Tests.certificate("cv448-secret-key.asc")
        var encryptor = Encryptor(now: SequoiaCv448Tests.now)
        encryptor.recipients = [sequoia.publicCertificate]
        let message = try encryptor.encrypt(Array("to Sequoia".utf8))
        var decryptor = Decryptor(now: SequoiaCv448Tests.now)
        decryptor.keys = [sequoia]
        #expect(try decryptor.decrypt(message).literal.data == Array("to Sequoia".utf8))
        let other = try KeyGenerator.generateV6(userIDs: ["E <e@example.org>"], passphrase: nil, now: SequoiaCv448Tests.now - 60, curve: .cv448)
        SequoiaCv448Tests.expectNoMatchingKey(message, keys: [other])
    }

    @Test("Ed448 signatures are made with SHA-512 even when SHA-256 is asked for, and one made with SHA-256 is refused")
    func ed448NeedsSHA512() throws {
        let key = try Self.key()
        let unlocked = try key.secretKeys[0].unlock(passphrase: nil)
        let data = Array("hash me".utf8)
        let made = try Signature.create(type: .binary, over: data, by: unlocked, hash: .sha256, time: Self.now)
        #expect(made.hashAlgorithm == .sha512 && made.salt.count == 32)
        try made.verify(data: data, by: key.primaryKey)
        guard case .ed448(let secret) = unlocked.secret else { throw PGPError.malformed("not an Ed448 key") }
        // The same signature by hand, once with SHA-512 (accepted) and once with SHA-256 (refused).
        for hash in [HashAlgorithm.sha512, .sha256] {
            let draft = Signature.draft(type: .binary, by: key.primaryKey, hash: .sha512, time: Self.now)
            var header = draft.hashedHeader
            header[3] = hash.rawValue
            let unsigned = Signature(type: .binary, publicKeyAlgorithm: .ed448, hashAlgorithm: hash, hashed: draft.hashed, unhashed: [],
                                     digestPrefix: [], mpis: [], hashedHeader: header, version: 6, salt: randomBytes(hash.saltSize))
            let digest = hash.digest(unsigned.signedBytes(data))
            let signed = Signature(type: .binary, publicKeyAlgorithm: .ed448, hashAlgorithm: hash, hashed: draft.hashed, unhashed: [],
                                   digestPrefix: Array(digest.prefix(2)), mpis: [try secret.signature(for: digest)], hashedHeader: header,
                                   version: 6, salt: unsigned.salt)
            let reread = try Signature(packetBody: signed.body)
            if hash == .sha512 {
                try reread.verify(data: data, by: key.primaryKey)
            } else {
                #expect(throws: PGPError.badSignature("an Ed448 signature made with a hash shorter than 512 bits")) {
                    try reread.verify(data: data, by: key.primaryKey)
                }
            }
        }
    }

    @Test("a v4 Ed448 key (RFC 9580 allows algorithm 28 in v4 keys) reads back, and its cleartext signature says SHA512")
    func v4Ed448() throws {
        let secret = try Curve448.Signing.PrivateKey()
        let publicKey = PublicKey(created: Self.now, material: .ed448(publicKey: secret.publicKey.rawRepresentation))
        #expect(publicKey.version == 4 && publicKey.body.count == 1 + 4 + 1 + 57)
        #expect(try PublicKey(packetBody: publicKey.body) == publicKey)
        let signer = UnlockedKey(publicKey: publicKey, secret: .ed448(secret), secretMPIs: secret.rawRepresentation)
        let message = try CleartextSignature.sign("Signed by a v4 Ed448 key.\n", signers: [signer], now: Self.now)
        #expect(message.contains("\nHash: SHA512\n"))
        let (_, signed, signatures) = try CleartextSignature.read(message)
        #expect(signatures.count == 1 && signatures[0].version == 4 && signatures[0].hashAlgorithm == .sha512)
        try signatures[0].verify(data: signed, by: publicKey)
    }

    @Test("Ed448 and X448 key material of the wrong length, or a secret that does not match, is refused")
    func wrongLengthMaterial() throws {
        let key = try Self.key()
        for (publicKey, size) in [(key.primaryKey, 57), (key.subkeys[0].key, 56)] {
            let prefix = Array(publicKey.body.prefix(6)), material = Array(publicKey.body.dropFirst(10))
            #expect(material.count == size)
            for altered in [Array(material.dropLast()), material + [0]] {
                var body = prefix
                body.appendU32(UInt32(altered.count))
                #expect(throws: PGPError.self) { try PublicKey(packetBody: body + altered) }
            }
            // The stated length disagreeing with the material is refused too.
            var body = prefix
            body.appendU32(UInt32(size - 1))
            #expect(throws: PGPError.self) { try PublicKey(packetBody: body + material) }
        }
        for secret in key.secretKeys {
            let unlocked = try secret.unlock(passphrase: nil)
            #expect(throws: (any Error).self) { try UnlockedKey(publicKey: secret.publicKey, secretMPIs: Array(unlocked.secretMPIs.dropLast())) }
            var other = unlocked.secretMPIs
            other[5] ^= 0x40
            #expect(throws: PGPError.self) { try UnlockedKey(publicKey: secret.publicKey, secretMPIs: other) }
        }
        // A signature whose Ed448 field is one octet short.
        let signature = key.directSignatures[0]
        #expect(throws: PGPError.self) { try Signature(packetBody: Array(signature.body.dropLast())) }
        #expect(throws: PGPError.self) { try Signature(packetBody: signature.body + [0]) }
    }

    /// The other direction, against Sequoia: `PARLEY_CV448_OUT=DIR swift test --filter RFC9580Curve448Tests`, then
    /// `scripts/vectors/sequoia_rfc9580.py check DIR` decrypts and verifies Parley's Cv448 output with Sequoia.
    @Test("writes Parley's Cv448 certificate and messages for Sequoia to check (only when PARLEY_CV448_OUT is set)",
          .enabled(if: ProcessInfo.processInfo.environment["PARLEY_CV448_OUT"] != nil))
    func writeForSequoia() throws {
        let directory = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["PARLEY_CV448_OUT"]))
        let now = UInt32(Date().timeIntervalSince1970)
        let key = try KeyGenerator.generateV6(userIDs: ["Parley Cv448 <parley@example.org>"], passphrase: nil, now: now - 60, curve: .cv448)
        let signer = try key.unlockedSigningKey(passphrases: [], now: now)
        var encryptor = Encryptor(now: now)
        encryptor.recipients = [try SequoiaCv448Tests.certificate("cv448-cert.asc")]
        encryptor.signers = [signer]
        let files: [(String, [UInt8])] = [
            ("parley-cert.asc", Array(key.publicCertificate.armored.utf8)),
            ("parley-to-sequoia.asc", Array(Armor.encode(try encryptor.encrypt(Array("Parley to Sequoia over Curve448\n".utf8)), as: .message).utf8)),
            ("parley-signed.asc", Array(Armor.encode(try Signer.inline(Array("signed with Ed448\n".utf8), signers: [signer], now: now), as: .message).utf8)),
            ("sequoia-secret-key.asc", try Curve448Vectors.sequoia("cv448-secret-key.asc")),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
    }
}
