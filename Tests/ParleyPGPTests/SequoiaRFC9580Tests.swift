import Foundation
import ParleyPGP
import Testing

/// RFC 9580 (v6) messages that Sequoia-PGP 2 wrote (Vectors/rfc9580/sequoia, made by
/// scripts/vectors/sequoia_rfc9580.py through pysequoia): a second implementation nobody here wrote. The same
/// script's `check` reads Parley's v6 output with Sequoia (docs/PGP.md, "RFC 9580").
@Suite struct SequoiaRFC9580Tests {
    struct Manifest: Decodable {
        let fingerprint: String
        let plaintext: String
        let password: String
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Vectors/rfc9580/sequoia") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    static let manifest = try! JSONDecoder().decode(Manifest.self, from: Data(bytes("manifest.json")))
    /// Shortly after the vectors were made (2026-11-26 01:19 UTC), well inside their three-year validity.
    static let now: UInt32 = 1_795_658_400
    static func certificate(_ name: String) throws -> Certificate { try #require(Certificate.readAll(bytes(name)).first) }

    @Test("Sequoia's v6 certificate and secret key read as v6 Ed25519 + X25519, with its fingerprint")
    func keys() throws {
        let certificate = try Self.certificate("sequoia-cert.asc")
        #expect(certificate.primaryKey.version == 6)
        #expect(certificate.primaryKey.fingerprint.upperHex == Self.manifest.fingerprint.uppercased())
        #expect(!certificate.encryptionKeys(at: Self.now).isEmpty && !certificate.signingKeys(at: Self.now).isEmpty)
        let secret = try Self.certificate("sequoia-secret-key.asc")
        #expect(secret.isSecret && secret.publicCertificate.primaryKey == certificate.primaryKey)
    }

    @Test("a message Sequoia encrypted to its v6 key and signed decrypts, whole and streamed, with a good signature; a flipped bit fails")
    func encryptedAndSigned() throws {
        var decryptor = Decryptor(now: Self.now)
        decryptor.keys = [try Self.certificate("sequoia-secret-key.asc")]
        decryptor.verifiers = [try Self.certificate("sequoia-cert.asc")]
        let message = try Self.bytes("sequoia-encrypted-signed.asc")
        let result = try decryptor.decrypt(message)
        #expect(result.literal.data == Array(Self.manifest.plaintext.utf8))
        #expect(result.verifications.count == 1 && result.verifications.allSatisfy(\.isGood))
        let output = PGPMemoryOutput()
        _ = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        #expect(output.bytes == Array(Self.manifest.plaintext.utf8))
        var binary = try Armor.decode(String(decoding: message, as: UTF8.self)).data
        binary[binary.count - 20] ^= 0x01
        #expect(throws: (any Error).self) { try decryptor.decrypt(binary) }
    }

    @Test("Sequoia's inline, cleartext and detached v6 signatures verify; another text does not")
    func signatures() throws {
        let certificate = try Self.certificate("sequoia-cert.asc")
        let plain = Array(Self.manifest.plaintext.utf8)
        let output = PGPMemoryOutput()
        let inline = try Verification.inline(from: PGPMemoryInput(Self.bytes("sequoia-inline-signed.asc")), to: output,
                                             certificates: [certificate], now: Self.now)
        #expect(inline.count == 1 && inline.allSatisfy(\.isGood) && output.bytes == plain)
        let cleartext = String(decoding: try Self.bytes("sequoia-cleartext-signed.asc"), as: UTF8.self)
        let (_, verifications) = try CleartextSignature.verify(cleartext, certificates: [certificate], now: Self.now)
        #expect(verifications.count == 1 && verifications.allSatisfy(\.isGood))
        let detached = try Self.bytes("sequoia-detached.sig")
        #expect(try Verification.detached(detached, data: plain, certificates: [certificate], now: Self.now).allSatisfy(\.isGood))
        #expect(try Verification.detached(detached, data: plain + [0x0A], certificates: [certificate], now: Self.now).allSatisfy { !$0.isGood })
    }

    @Test("a message Sequoia encrypted to a password decrypts with it and not with another")
    func password() throws {
        var decryptor = Decryptor(now: Self.now)
        decryptor.passwords = [Array(Self.manifest.password.utf8)]
        let message = try Self.bytes("sequoia-password.asc")
        #expect(try decryptor.decrypt(message).literal.data == Array(Self.manifest.plaintext.utf8))
        decryptor.passwords = [Array("not the password".utf8)]
        #expect(throws: (any Error).self) { try decryptor.decrypt(message) }
    }
}
