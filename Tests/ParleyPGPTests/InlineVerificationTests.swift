import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// `Verification.inline(from:to:certificates:now:)`: inline-signed messages (one-pass signature,
/// literal data, signature) armored or binary, compressed or not, and cleartext-signed texts, made by
/// Parley and by the real gpg; altered, cut, encrypted and hostile input.
@Suite(.serialized) struct InlineVerificationTests {
    static let content = Array("inline-signed content\nsecond line ✓\n".utf8) + (0..<80_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
    static var later: UInt32 { UInt32(Date().timeIntervalSince1970) + 3600 }

    static func key() throws -> Certificate {
        try KeyGenerator.generate(userIDs: ["In Line <inline@example.org>"], passphrase: nil, now: Fixtures.now - 60)
    }

    /// The verifications and the content `inline` wrote, streamed 7 bytes at a time (chunk edges everywhere).
    static func verify(_ message: [UInt8], _ certificates: [Certificate]) throws -> ([Verification], [UInt8]) {
        let output = PGPMemoryOutput()
        let verifications = try Verification.inline(from: ChunkedInput(message, chunkSize: 7), to: output, certificates: certificates,
                                                    now: later)
        return (verifications, output.bytes)
    }

    @Test func parleySignedMessagesVerifyInEveryForm() throws {
        let key = try Self.key()
        let signer = try key.unlockedSigningKey(passphrases: [], now: Fixtures.now)
        let binary = try Signer.inline(Self.content, signers: [signer], now: Fixtures.now)
        let text = Array("a text message\r\nwith CRLF and LF\nlines\n".utf8)
        let forms: [(String, [UInt8], [UInt8])] = [
            ("binary", binary, Self.content),
            ("armored", Array(Armor.encode(binary, as: .message).utf8), Self.content),
            ("text mode", try Signer.inline(text, signers: [signer], text: true, now: Fixtures.now), text),
            ("compressed", Packet(.compressedData, body: try Compression.compressZlib(binary)).encoded, Self.content),
            ("cleartext", Array(try CleartextSignature.sign("Clear text\n- dashed line\n", signers: [signer], now: Fixtures.now).utf8),
             Array("Clear text\n- dashed line\n".utf8)),
        ]
        for (name, message, expected) in forms {
            let (verifications, output) = try Self.verify(message, [key.publicCertificate])
            #expect(verifications.map(\.isGood) == [true], "\(name)")
            #expect(verifications.first?.certificateFingerprint == key.fingerprint, "\(name)")
            #expect(output == expected, "\(name)")
            // By someone else's certificate it is not good, and says why.
            let (others, _) = try Self.verify(message, [try Self.key().publicCertificate])
            #expect(others.map(\.isGood) == [false], "\(name)")
            #expect(others.first?.failure == .badSignature("no given certificate made this signature"), "\(name)")
        }
    }

    @Test func gnupgSignedMessagesVerify() async throws {
        let (binary, armored, stored, clearsigned) = try await Blocking.run {
            let gpg = try GPG()
            try gpg(["--import"], input: Fixtures.bytes("ed.sec.asc"))
            let ed = try Fixtures.text("ed.fpr")
            return (try gpg(["--sign", "-u", ed, "-o", "-"], input: Self.content),
                    try gpg(["--sign", "--armor", "-u", ed, "-o", "-"], input: Self.content),
                    try gpg(["--sign", "--compress-algo", "none", "-u", ed, "-o", "-"], input: Self.content),
                    try gpg(["--clearsign", "-u", ed, "-o", "-"], input: Array("gpg clear text\n".utf8)))
        }
        let certificate = try Fixtures.certificate("ed.pub.asc")
        for (name, message) in [("binary", binary), ("armored", armored), ("uncompressed", stored)] {
            let (verifications, output) = try Self.verify(message, [certificate])
            #expect(verifications.map(\.isGood) == [true], "\(name)")
            #expect(output == Self.content, "\(name)")
        }
        let (verifications, output) = try Self.verify(clearsigned, [certificate])
        #expect(verifications.map(\.isGood) == [true])
        #expect(output == Array("gpg clear text\n".utf8))
        // One byte of gpg's literal data flipped: the signature no longer holds.
        #expect(try Self.verify(Self.flipped(stored), [certificate]).0.map(\.isGood) == [false])
    }

    /// `message` with one byte of its (uncompressed) literal content flipped.
    static func flipped(_ message: [UInt8]) throws -> [UInt8] {
        var bytes = message
        let start = try #require(bytes.indices.first { bytes[$0...].starts(with: content.prefix(16)) })
        bytes[start + 100] ^= 0x04
        return bytes
    }

    @Test func alteredContentIsABadSignatureThatNamesNoContent() throws {
        let key = try Self.key()
        let signer = try key.unlockedSigningKey(passphrases: [], now: Fixtures.now)
        let altered = try Self.flipped(Signer.inline(Self.content, signers: [signer], now: Fixtures.now))
        let (verifications, _) = try Self.verify(altered, [key.publicCertificate])
        #expect(verifications.map(\.isGood) == [false])
        guard case .badSignature(let why)? = verifications.first?.failure else {
            Issue.record("expected a bad signature, got \(String(describing: verifications.first?.failure))")
            return
        }
        #expect(!why.contains("inline-signed content"))
        // A cleartext text changed after signing.
        let clear = try CleartextSignature.sign("Pay 10 EUR\n", signers: [signer], now: Fixtures.now)
        let changed = Array(clear.replacingOccurrences(of: "Pay 10 EUR", with: "Pay 99 EUR").utf8)
        #expect(try Self.verify(changed, [key.publicCertificate]).0.map(\.isGood) == [false])
    }

    @Test func encryptedUnsignedAndHostileInput() throws {
        let key = try Self.key()
        let signer = try key.unlockedSigningKey(passphrases: [], now: Fixtures.now)
        // Encrypted: there is nothing here to decrypt it with.
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.recipients = [key.publicCertificate]
        encryptor.signers = [signer]
        #expect(throws: PGPError.noMatchingKey) { try Self.verify(encryptor.encrypt(Self.content), [key.publicCertificate]) }
        // A bare literal message is readable but carries no signature.
        let literal = Packet(.literalData, body: LiteralData(data: Self.content).body).encoded
        #expect(try Self.verify(literal, [key.publicCertificate]).0.isEmpty)
        // Garbage and non-messages are typed errors.
        for garbage: [UInt8] in [[], [0x00], [0xFF, 0xFF, 0xFF], Array("just some text".utf8),
                                 Array("-----BEGIN PGP SIGNED MESSAGE-----\n\nno signature follows\n".utf8),
                                 Array("-----BEGIN PGP SIGNED MESSAGE-----\n\n".utf8) + [0xFF, 0xFE]] {
            #expect(throws: PGPError.self) { try Self.verify(garbage, [key.publicCertificate]) }
        }
        // Cut anywhere, a signed message never verifies: an error, or no good signature.
        let signed = try Signer.inline(Array(Self.content.prefix(300)), signers: [signer], now: Fixtures.now)
        for cut in 0..<signed.count {
            do {
                let (verifications, _) = try Self.verify(Array(signed[..<cut]), [key.publicCertificate])
                #expect(verifications.allSatisfy { !$0.isGood }, "cut at \(cut)")
            } catch {
                #expect(error is PGPError, "cut at \(cut)")
            }
        }
        // A cleartext text streams: lines longer than the part held to recognise armor lines, and many of them.
        let longText = String(repeating: "- " + String(repeating: "long line ", count: 40) + "\t \n", count: 200)
        let clear = Array(try CleartextSignature.sign(longText, signers: [signer], now: Fixtures.now).utf8)
        let (clearVerifications, clearText) = try Self.verify(clear, [key.publicCertificate])
        #expect(clearVerifications.map(\.isGood) == [true])
        #expect(clearText == Array(longText.utf8))
        // Random mutations: a result or a typed error, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var mutated = signed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try Self.verify(mutated, [key.publicCertificate])
            } catch {
                #expect(error is PGPError)
            }
        }
    }
}
