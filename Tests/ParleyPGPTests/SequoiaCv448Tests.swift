import Foundation
@testable import ParleyPGP
import Testing

/// An RFC 9580 Cv448 key and messages that Sequoia-PGP wrote (Vectors/rfc9580/curve448/sequoia, made by
/// scripts/vectors/rfc9580_448.py through pysequoia): v6 Ed448 primary and signing subkey, X448 encryption subkey,
/// SHA-512 signatures. Parley must read them all, and refuse them altered.
@Suite struct SequoiaCv448Tests {
    typealias V = Curve448Vectors

    struct Manifest: Decodable {
        let fingerprint: String
        let plaintext: String
    }

    static let manifest = try! JSONDecoder().decode(Manifest.self, from: Data(V.sequoia("manifest.json")))
    static var plain: [UInt8] { Array(manifest.plaintext.utf8) }
    /// Shortly after the vectors were made (2026-11-26), well inside their validity.
    static let now: UInt32 = 1_795_700_000
    static func certificate(_ name: String) throws -> Certificate { try #require(Certificate.readAll(V.sequoia(name)).first) }
    static func binary(_ name: String) throws -> [UInt8] { try Armor.decode(String(decoding: V.sequoia(name), as: UTF8.self)).data }

    @Test("Sequoia's Cv448 certificate and secret key read as v6 Ed448 + X448, and are written back byte for byte")
    func keys() throws {
        let certificate = try Self.certificate("cv448-cert.asc")
        #expect(certificate.primaryKey.version == 6 && certificate.primaryKey.algorithm == .ed448)
        #expect(certificate.primaryKey.fingerprint.upperHex == Self.manifest.fingerprint.uppercased())
        #expect(Set(certificate.subkeys.map(\.key.algorithm)) == [.ed448, .x448])
        #expect(certificate.encryptionKeys(at: Self.now).map(\.algorithm) == [.x448])
        #expect(certificate.signingKeys(at: Self.now).map(\.algorithm) == [.ed448])
        #expect(try Certificate.readAll(certificate.packets.encoded)[0].packets.encoded == certificate.packets.encoded)
        let secret = try Self.certificate("cv448-secret-key.asc")
        #expect(secret.isSecret && secret.publicCertificate.primaryKey == certificate.primaryKey)
        for key in secret.secretKeys {
            let unlocked = try key.unlock(passphrase: nil)
            #expect(unlocked.secretMPIs.count == (key.publicKey.algorithm == .x448 ? 56 : 57))
        }
        #expect(try Certificate.readAll(secret.packets.encoded)[0].packets.encoded == secret.packets.encoded)
    }

    @Test("a message Sequoia encrypted to X448 and signed with Ed448 decrypts, whole and streamed, with a good signature")
    func encryptedAndSigned() throws {
        var decryptor = Decryptor(now: Self.now)
        decryptor.keys = [try Self.certificate("cv448-secret-key.asc")]
        decryptor.verifiers = [try Self.certificate("cv448-cert.asc")]
        let message = try V.sequoia("cv448-encrypted-signed.asc")
        let result = try decryptor.decrypt(message)
        #expect(result.literal.data == Self.plain)
        #expect(result.verifications.count == 1 && result.verifications.allSatisfy(\.isGood))
        #expect(result.verifications.first?.signature.publicKeyAlgorithm == .ed448)
        let output = PGPMemoryOutput()
        _ = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        #expect(output.bytes == Self.plain)
        let pkesk = try PKESK(packetBody: #require(PacketParser.parse(Self.binary("cv448-encrypted-signed.asc")).first).body)
        #expect(pkesk.algorithm == .x448 && pkesk.fields[0].count == 56)
    }

    @Test("Sequoia's inline, cleartext and detached Ed448 signatures verify; another text does not")
    func signatures() throws {
        let certificate = try Self.certificate("cv448-cert.asc")
        let output = PGPMemoryOutput()
        let inline = try Verification.inline(from: PGPMemoryInput(V.sequoia("cv448-inline-signed.asc")), to: output,
                                             certificates: [certificate], now: Self.now)
        #expect(inline.count == 1 && inline.allSatisfy(\.isGood) && output.bytes == Self.plain)
        let cleartext = String(decoding: try V.sequoia("cv448-cleartext-signed.asc"), as: UTF8.self)
        let (_, verifications) = try CleartextSignature.verify(cleartext, certificates: [certificate], now: Self.now)
        #expect(verifications.count == 1 && verifications.allSatisfy(\.isGood))
        let detached = try V.sequoia("cv448-detached.sig")
        let signature = try Signature(packetBody: #require(PacketParser.parse(Self.binary("cv448-detached.sig")).first).body)
        #expect(signature.publicKeyAlgorithm == .ed448 && signature.hashAlgorithm == .sha512 && signature.mpis == [signature.mpis[0]])
        #expect(signature.mpis[0].count == 114)
        #expect(try Verification.detached(detached, data: Self.plain, certificates: [certificate], now: Self.now).allSatisfy(\.isGood))
        #expect(try Verification.detached(detached, data: Self.plain + [0x0A], certificates: [certificate], now: Self.now).allSatisfy { !$0.isGood })
    }

    @Test("a flipped bit in the Ed448 signature, anywhere in its 114 octets, makes it bad")
    func flippedSignatureBits() throws {
        let certificate = try Self.certificate("cv448-cert.asc")
        let packet = try #require(PacketParser.parse(Self.binary("cv448-detached.sig")).first)
        for fromEnd in [1, 30, 57, 58, 114] {
            var body = packet.body
            body[body.count - fromEnd] ^= 0x01
            let altered = [Packet(tagNumber: packet.tagNumber, body: body)].encoded
            let results = try Verification.detached(altered, data: Self.plain, certificates: [certificate], now: Self.now)
            #expect(!results.isEmpty && results.allSatisfy { !$0.isGood }, "flipped \(fromEnd) from the end")
        }
    }

    @Test("a flipped bit in the PKESK's X448 ephemeral key, or the wrong X448 key, opens nothing")
    func flippedEphemeralAndWrongKey() throws {
        let packets = try PacketParser.parse(Self.binary("cv448-encrypted-signed.asc"))
        let pkesk = packets[0]
        // v6: version, length, fingerprint (version + 32), algorithm; v3: version, key ID, algorithm.
        let ephemeralStart = pkesk.body[0] == 6 ? 2 + Int(pkesk.body[1]) + 1 : 10
        for offset in [0, 27, 55] {
            var body = pkesk.body
            body[ephemeralStart + offset] ^= 0x01
            let altered = ([Packet(tagNumber: pkesk.tagNumber, body: body)] + packets.dropFirst()).encoded
            Self.expectNoMatchingKey(altered, keys: [try Self.certificate("cv448-secret-key.asc")])
        }
        let stranger = try KeyGenerator.generateV6(userIDs: ["Stranger <s@example.org>"], passphrase: nil, now: Self.now - 60, curve: .cv448)
        Self.expectNoMatchingKey(packets.encoded, keys: [stranger])
    }

    /// Both readers refuse `message` with `.noMatchingKey`.
    static func expectNoMatchingKey(_ message: [UInt8], keys: [Certificate], sourceLocation: SourceLocation = #_sourceLocation) {
        var decryptor = Decryptor(now: now)
        decryptor.keys = keys
        #expect(throws: PGPError.noMatchingKey, sourceLocation: sourceLocation) { try decryptor.decrypt(message) }
        #expect(throws: PGPError.noMatchingKey, sourceLocation: sourceLocation) {
            try decryptor.decrypt(from: PGPMemoryInput(message), to: PGPMemoryOutput())
        }
    }
}
