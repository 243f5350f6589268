import Testing
@testable import ParleyPGP

/// Real keys and messages with random bit flips, cuts and insertions: every outcome is a value or a
/// `PGPError`, never a crash, and an altered encrypted message never yields its plaintext silently.
@Suite struct MutationFuzzTests {
    static func mutate(_ bytes: [UInt8], using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var out = bytes
        switch Int.random(in: 0..<4, using: &generator) {
        case 0 where !out.isEmpty:
            let index = Int.random(in: 0..<out.count, using: &generator)
            out[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
        case 1 where !out.isEmpty:
            out = Array(out.prefix(Int.random(in: 0..<out.count, using: &generator)))
        case 2:
            out.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...out.count, using: &generator))
        default:
            if !out.isEmpty { out[Int.random(in: 0..<out.count, using: &generator)] = 0xFF }
        }
        return out
    }

    @Test func mutatedCertificatesNeverCrash() throws {
        var generator = SystemRandomNumberGenerator()
        for name in ["rsa.pub.asc", "ed.pub.asc", "rsa.sec.asc", "ed.sec.asc"] {
            let binary = try Armor.unwrap(Fixtures.bytes(name))
            for _ in 0..<300 {
                let mutated = Self.mutate(binary, using: &generator)
                do {
                    for cert in try Certificate.readAll(mutated) {
                        _ = cert.encryptionKeys(at: Fixtures.now)
                        _ = cert.signingKeys(at: Fixtures.now)
                    }
                } catch is PGPError {
                    continue
                }
            }
        }
    }

    @Test func mutatedMessagesFailWithTypedErrorsOrKeepTheirContent() throws {
        var generator = SystemRandomNumberGenerator()
        let now = Fixtures.now
        let key = try KeyGenerator.generate(userIDs: ["Fuzz <f@example.org>"], passphrase: nil, now: now - 10)
        let signer = try key.unlockedSigningKey(passphrases: [], now: now - 10)
        let plain = Array("fuzzing plaintext that must never leak when altered".utf8)
        var encryptor = Encryptor(now: now - 10)
        encryptor.recipients = [key.publicCertificate]
        encryptor.signers = [signer]
        encryptor.compress = true
        let message = try encryptor.encrypt(plain)
        var decryptor = Decryptor(now: now)
        decryptor.keys = [key]
        decryptor.verifiers = [key.publicCertificate]
        var accepted = 0
        for _ in 0..<400 {
            let mutated = Self.mutate(message, using: &generator)
            do {
                let result = try decryptor.decrypt(mutated)
                // Only a change outside the authenticated data (e.g. a PKESK byte that still decrypts) may pass.
                #expect(result.literal.data == plain)
                accepted += 1
            } catch is PGPError {
                continue
            }
        }
        #expect(accepted < 400)
        let signed = try Signer.inline(plain, signers: [signer], now: now - 10)
        for _ in 0..<400 {
            let mutated = Self.mutate(signed, using: &generator)
            if let result = try? decryptor.decrypt(mutated), result.literal.data != plain {
                #expect(result.verifications.allSatisfy { !$0.isGood })
            }
        }
    }

    @Test func manyPasswordPacketsAreCapped() throws {
        var encryptor = Encryptor(now: 0)
        encryptor.passwords = [Array("right password".utf8)]
        let message = try encryptor.encrypt([1, 2, 3])
        let packets = try PacketParser.parse(message)
        // 100 cheap decoy SKESKs in front: only the first 32 are tried, so the real one is never reached.
        let decoy = Packet(.symmetricKeyEncryptedSessionKey, body: [4, 9, 0, 8])
        let hostile = ([Packet](repeating: decoy, count: 100) + packets).encoded
        var decryptor = Decryptor(now: 0)
        decryptor.passwords = [Array("right password".utf8)]
        #expect(throws: PGPError.noMatchingKey) { try decryptor.decrypt(hostile) }
        #expect(try decryptor.decrypt(message).literal.data == [1, 2, 3])
    }
}
