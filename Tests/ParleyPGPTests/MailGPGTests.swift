import Foundation
import Testing
@testable import ParleyPGP

/// Mail made with the real GnuPG 2.2, wrapped in MIME the way mail clients send it (gpg writes no MIME).
@Suite(.serialized) struct MailGPGTests {
    static let passphrase = [Fixtures.passphrase]
    static var later: UInt32 { UInt32(Date().timeIntervalSince1970) + 3600 }

    /// The inner entity of the PGP/MIME message: text and an attachment.
    static let innerEntity = Array("""
        Content-Type: multipart/mixed; boundary="in"\r
        \r
        --in\r
        Content-Type: text/plain; charset=utf-8\r
        Content-Transfer-Encoding: quoted-printable\r
        \r
        Gr=C3=BC=C3=9Fe from gpg.\r
        --in\r
        Content-Type: application/pdf; name="notes.pdf"\r
        Content-Disposition: attachment; filename="notes.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        JVBERi0xLjQK\r
        --in--\r

        """.utf8)

    /// The signed part of the multipart/signed message, exactly as signed (CRLF; the line break before
    /// the next boundary belongs to the boundary, so the part's own last CRLF is signed).
    static let signedPart = Array("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nSigned b=C3=B6dy, =\r\nsoft break.\r\n".utf8)

    /// Everything gpg makes for these tests, made off the test's thread (gpg blocks while it runs).
    struct Material: Sendable {
        let pgpMIME: [UInt8], inlineRSA: [UInt8], clearsigned: [UInt8], detachedSignature: [UInt8]
        let attachment: [UInt8], noMDC: [UInt8], signedThenEncrypted: [UInt8]
    }

    static func material() async throws -> Material {
        try await Blocking.run {
            let gpg = try GPG()
            try gpg(["--import"], input: Fixtures.bytes("ed.sec.asc"))
            try gpg(["--import"], input: Fixtures.bytes("rsa.sec.asc"))
            let ed = try Fixtures.text("ed.fpr"), rsa = try Fixtures.text("rsa.fpr")
            let detached = try gpg(["--armor", "--detach-sign", "-u", ed, "-o", "-"], input: Self.signedPart)
            // RFC 3156 §6.1, as Thunderbird sends: a multipart/signed entity, then encrypted.
            let signedEntity = Array("Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=\"sig\"\r\n\r\n--sig\r\n".utf8)
                + Self.signedPart + Array("\r\n--sig\r\nContent-Type: application/pgp-signature\r\n\r\n".utf8) + detached + Array("\r\n--sig--\r\n".utf8)
            return Material(
                pgpMIME: try gpg(["--armor", "--sign", "--encrypt", "-r", ed, "-u", ed, "-o", "-"], input: Self.innerEntity),
                inlineRSA: try gpg(["--armor", "--encrypt", "-r", rsa, "-o", "-"], input: Array("Inline secret\nline 2\n".utf8)),
                clearsigned: try gpg(["--clearsign", "-u", rsa, "-o", "-"], input: Array("Clear and signed.\n".utf8)),
                detachedSignature: detached,
                attachment: try gpg(["--encrypt", "--sign", "-r", ed, "-u", rsa, "-o", "-"], input: Array(0...255)),
                noMDC: try gpg(["--rfc2440", "--cipher-algo", "AES", "--encrypt", "-r", ed, "-o", "-"], input: Array("old\n".utf8)),
                signedThenEncrypted: try gpg(["--armor", "--encrypt", "-r", ed, "-o", "-"], input: signedEntity)
            )
        }
    }

    static func pgpMIME(_ armored: [UInt8]) -> [UInt8] {
        Array("""
            From: Bob <bob@example.org>\r
            Subject: PGP/MIME from gpg\r
            MIME-Version: 1.0\r
            Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="out"\r
            \r
            This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156)\r
            --out\r
            Content-Type: application/pgp-encrypted\r
            \r
            Version: 1\r
            --out\r
            Content-Type: application/octet-stream; name="encrypted.asc"\r
            \r

            """.utf8) + armored + Array("\r\n--out--\r\n".utf8)
    }

    @Test func pgpMIMEFromGPG() async throws {
        let material = try await Self.material()
        let key = try Fixtures.certificate("ed.sec.asc"), certificate = try Fixtures.certificate("ed.pub.asc")
        let mail = try MailReader.read(eml: Self.pgpMIME(material.pgpMIME), keys: [key], passphrases: Self.passphrase,
                                       verifyWith: [certificate], now: Self.later)
        let signed = SignatureStatus.valid(fingerprint: certificate.fingerprint)
        #expect(mail.subject == "PGP/MIME from gpg")
        #expect(mail.blocks == [
            .decryptedText("Grüße from gpg.", signature: signed),
            .attachment(MailAttachment(name: "notes.pdf", mediaType: "application/pdf", data: Array("%PDF-1.4\n".utf8),
                                       wasEncrypted: true, signature: signed)),
        ])
        // Without the signer's certificate the signature is from an unknown signer, the text still shown.
        let unknown = try MailReader.read(eml: Self.pgpMIME(material.pgpMIME), keys: [key], passphrases: Self.passphrase, verifyWith: [], now: Self.later)
        guard case .decryptedText(_, .unknownSigner(let keyID)) = unknown.blocks.first else {
            Issue.record("expected an unknown signer: \(unknown.blocks)")
            return
        }
        #expect(keyID != nil)
    }

    @Test func signedThenEncryptedFromGPG() async throws {
        let material = try await Self.material()
        let key = try Fixtures.certificate("ed.sec.asc"), certificate = try Fixtures.certificate("ed.pub.asc")
        let mail = try MailReader.read(eml: Self.pgpMIME(material.signedThenEncrypted), keys: [key], passphrases: Self.passphrase,
                                       verifyWith: [certificate], now: Self.later)
        #expect(mail.blocks == [.decryptedText("Signed bödy, soft break.", signature: .valid(fingerprint: certificate.fingerprint))])
    }

    @Test func decryptionErrorsAreTypedPerBlock() async throws {
        let material = try await Self.material()
        let ed = try Fixtures.certificate("ed.sec.asc"), rsa = try Fixtures.certificate("rsa.sec.asc")
        let eml = Self.pgpMIME(material.pgpMIME)
        func blocks(_ bytes: [UInt8], keys: [Certificate], passphrases: [[UInt8]]) throws -> [MailBlock] {
            try MailReader.read(eml: bytes, keys: keys, passphrases: passphrases, verifyWith: [], now: Self.later).blocks
        }
        #expect(try blocks(eml, keys: [rsa], passphrases: Self.passphrase) == [.error(.keyMismatch)])
        #expect(try blocks(eml, keys: [ed], passphrases: []) == [.error(.needsPassphrase)])
        #expect(try blocks(eml, keys: [ed], passphrases: [Array("wrong wrong wrong".utf8)]) == [.error(.wrongPassphrase)])
        // Altered ciphertext near the end of the SEIPD: the MDC catches it.
        var binary = try Armor.unwrap(material.pgpMIME)
        binary[binary.count - 10] ^= 0x01
        let tampered = Self.pgpMIME(Array(Armor.encode(binary, as: .message).utf8))
        #expect(try blocks(tampered, keys: [ed], passphrases: Self.passphrase) == [.error(.badMDC)])
        let old = Self.pgpMIME(Array(Armor.encode(material.noMDC, as: .message).utf8))
        #expect(try blocks(old, keys: [ed], passphrases: Self.passphrase) == [.error(.noMDC)])
        // Cut short: a format error, not a crash.
        let cut = Self.pgpMIME(Array(Armor.encode(Array(binary.prefix(binary.count / 2)), as: .message).utf8))
        guard case .error(.formatError) = try blocks(cut, keys: [ed], passphrases: Self.passphrase).first else {
            Issue.record("a truncated message must be a format error")
            return
        }
    }

    @Test func inlineArmoredAndClearsignedText() async throws {
        let material = try await Self.material()
        let rsa = try Fixtures.certificate("rsa.sec.asc"), rsaPublic = try Fixtures.certificate("rsa.pub.asc")
        let body = "Hi,\r\n\r\n" + String(decoding: material.inlineRSA, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
            + "\r\nBetween.\r\n" + String(decoding: material.clearsigned, as: UTF8.self) + "\r\n-- \r\nBob\r\n"
        let eml = Array("Subject: inline\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\(body)".utf8)
        let mail = try MailReader.read(eml: eml, keys: [rsa], passphrases: Self.passphrase, verifyWith: [rsaPublic], now: Self.later)
        #expect(mail.blocks == [
            .plainText("Hi,", signature: .none),
            .decryptedText("Inline secret\nline 2", signature: .none),
            .plainText("Between.", signature: .none),
            .plainText("Clear and signed.", signature: .valid(fingerprint: rsaPublic.fingerprint)),
            .plainText("-- \nBob", signature: .none),
        ])
    }

    static func multipartSigned(_ part: [UInt8], signature: [UInt8]) -> [UInt8] {
        Array("Subject: signed\nContent-Type: multipart/signed; micalg=pgp-sha256; protocol=\"application/pgp-signature\"; boundary=\"sig\"\n\n--sig\n".utf8)
            + part + Array("\n--sig\nContent-Type: application/pgp-signature; name=\"signature.asc\"\n\n".utf8)
            + signature + Array("\n--sig--\n".utf8)
    }

    @Test func multipartSignedByGPG() async throws {
        let material = try await Self.material()
        let certificate = try Fixtures.certificate("ed.pub.asc")
        // The mail store turned every CRLF into LF: canonicalisation gives back the signed bytes.
        let lf = Array(String(decoding: Self.signedPart, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").utf8)
        for part in [Self.signedPart, lf] {
            let mail = try MailReader.read(eml: Self.multipartSigned(part, signature: material.detachedSignature),
                                           keys: [], passphrases: [], verifyWith: [certificate], now: Self.later)
            #expect(mail.blocks == [.plainText("Signed bödy, soft break.", signature: .valid(fingerprint: certificate.fingerprint))])
        }
        let altered = Array(String(decoding: Self.signedPart, as: UTF8.self).replacingOccurrences(of: "Signed", with: "Signet").utf8)
        let bad = try MailReader.read(eml: Self.multipartSigned(altered, signature: material.detachedSignature),
                                      keys: [], passphrases: [], verifyWith: [certificate], now: Self.later)
        guard case .plainText("Signet bödy, soft break.", .bad) = bad.blocks.first else {
            Issue.record("an altered signed part must be a bad signature: \(bad.blocks)")
            return
        }
        let unknown = try MailReader.read(eml: Self.multipartSigned(Self.signedPart, signature: material.detachedSignature),
                                          keys: [], passphrases: [], verifyWith: [try Fixtures.certificate("rsa.pub.asc")], now: Self.later)
        #expect(unknown.blocks.count == 1)
        if case .plainText(_, .unknownSigner) = unknown.blocks[0] {} else { Issue.record("expected unknown signer: \(unknown.blocks)") }
    }

    @Test func encryptedAttachmentFromGPG() async throws {
        let material = try await Self.material()
        let ed = try Fixtures.certificate("ed.sec.asc"), rsaPublic = try Fixtures.certificate("rsa.pub.asc")
        let eml = Array("""
            Subject: file\r
            Content-Type: multipart/mixed; boundary=m\r
            \r
            --m\r
            Content-Type: text/plain\r
            \r
            See attached.\r
            --m\r
            Content-Type: application/pgp-encrypted; name="report.bin.pgp"\r
            Content-Disposition: attachment; filename="report.bin.pgp"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(TransferEncoding.encodeBase64(material.attachment))--m--\r

            """.utf8)
        let mail = try MailReader.read(eml: eml, keys: [ed], passphrases: Self.passphrase, verifyWith: [rsaPublic], now: Self.later)
        #expect(mail.blocks == [
            .plainText("See attached.", signature: .none),
            .attachment(MailAttachment(name: "report.bin", mediaType: "application/pgp-encrypted", data: Array(0...255),
                                       wasEncrypted: true, signature: .valid(fingerprint: rsaPublic.fingerprint))),
        ])
        // With the wrong key: the reason, then the encrypted file as it came.
        let rsa = try Fixtures.certificate("rsa.sec.asc")
        let wrong = try MailReader.read(eml: eml, keys: [rsa], passphrases: Self.passphrase, verifyWith: [], now: Self.later)
        #expect(wrong.blocks.dropFirst().first == .error(.keyMismatch))
        if case .attachment(let file) = wrong.blocks.last { #expect(file.name == "report.bin.pgp" && file.data == material.attachment) } else {
            Issue.record("the undecryptable attachment must still be offered")
        }
    }

    /// The gpg PGP/MIME message cut at every byte around each of its boundaries, and with random bytes
    /// changed: a result or a typed `MailError`, never a crash.
    @Test func truncatedAndMutatedPGPMIME() async throws {
        let material = try await Self.material()
        let key = try Fixtures.certificate("ed.sec.asc")
        let eml = Self.pgpMIME(material.pgpMIME)
        let text = String(decoding: eml, as: UTF8.self)
        var cuts: [Int] = []
        var search = text.startIndex
        while let found = text[search...].range(of: "--out") {
            let offset = text.utf8.distance(from: text.startIndex, to: found.lowerBound)
            cuts += (-3...12).map { offset + $0 }.filter { $0 >= 0 && $0 <= eml.count }
            search = found.upperBound
        }
        #expect(cuts.count > 30)
        var random = SystemRandomNumberGenerator()
        let mutated: [[UInt8]] = (0..<40).map { _ in
            var copy = eml
            copy[Int.random(in: 0..<copy.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            return copy
        }
        for sample in cuts.map({ Array(eml.prefix($0)) }) + mutated {
            do {
                _ = try MailReader.read(eml: sample, keys: [key], passphrases: Self.passphrase, verifyWith: [], now: Self.later)
            } catch is MailError {
                // typed: fine
            }
        }
    }
}
