import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Mail encrypted to a password only (SKESK), by the real gpg (`gpg --symmetric`) and by Parley's own
/// composer: readable with the password, `needsPassword` without one, `wrongPassword` with a wrong one.
@Suite(.serialized) struct MailPasswordTests {
    static let password = "mail password words"
    static let passwords = [Array(password.utf8)]
    static var later: UInt32 { UInt32(Date().timeIntervalSince1970) + 3600 }

    /// What gpg makes for these tests: PGP/MIME, inline and attachment payloads, and one message
    /// encrypted to both a key and the password.
    struct Material: Sendable {
        let pgpMIME: [UInt8], inline: [UInt8], attachment: [UInt8], keyAndPassword: [UInt8]
    }

    static func material() async throws -> Material {
        try await Blocking.run {
            let gpg = try GPG()
            try gpg(["--import"], input: Fixtures.bytes("ed.sec.asc"))
            let ed = try Fixtures.text("ed.fpr")
            return Material(
                pgpMIME: try gpg(["--armor", "--symmetric", "-o", "-"], input: MailGPGTests.innerEntity, passphrase: password),
                inline: try gpg(["--armor", "--symmetric", "-o", "-"], input: Array("Inline, by password\nline 2\n".utf8), passphrase: password),
                attachment: try gpg(["--symmetric", "-o", "-"], input: Array(0...255), passphrase: password),
                keyAndPassword: try gpg(["--armor", "--symmetric", "--encrypt", "-r", ed, "-o", "-"], input: MailGPGTests.innerEntity,
                                        passphrase: password)
            )
        }
    }

    static func blocks(_ eml: [UInt8], keys: [Certificate] = [], passphrases: [[UInt8]] = [], passwords: [[UInt8]]) throws -> [MailBlock] {
        try MailReader.read(eml: eml, keys: keys, passphrases: passphrases, passwords: passwords, verifyWith: [], now: later).blocks
    }

    static let decryptedEntity: [MailBlock] = [
        .decryptedText("Grüße from gpg.", signature: .none),
        .attachment(MailAttachment(name: "notes.pdf", mediaType: "application/pdf", data: Array("%PDF-1.4\n".utf8), wasEncrypted: true, signature: .none)),
    ]

    @Test func pgpMIMEEncryptedByGPGToAPassword() async throws {
        let eml = MailGPGTests.pgpMIME(try await Self.material().pgpMIME)
        #expect(try Self.blocks(eml, passwords: Self.passwords) == Self.decryptedEntity)
        // A second, wrong password first does no harm.
        #expect(try Self.blocks(eml, passwords: [Array("first try".utf8)] + Self.passwords) == Self.decryptedEntity)
        #expect(try Self.blocks(eml, passwords: []) == [.error(.needsPassword)])
        // Holding secret keys changes nothing for a password-only message.
        let ed = try Fixtures.certificate("ed.sec.asc")
        #expect(try Self.blocks(eml, keys: [ed], passphrases: [Fixtures.passphrase], passwords: []) == [.error(.needsPassword)])
        let wrong = try Self.blocks(eml, passwords: [Array("not the password".utf8)])
        #expect(wrong == [.error(.wrongPassword)])
        // The messages name no password, and show no plaintext.
        for error in [MailError.needsPassword, .wrongPassword] {
            #expect(!error.description.contains(Self.password) && !error.description.contains("Grüße"))
        }
    }

    @Test func inlineArmoredAndAttachmentEncryptedByGPGToAPassword() async throws {
        let material = try await Self.material()
        let eml = Array("""
            Subject: by password\r
            Content-Type: multipart/mixed; boundary=m\r
            \r
            --m\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            The password is the usual one.\r
            \(String(decoding: material.inline, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n"))\r
            --m\r
            Content-Type: application/octet-stream; name="bytes.bin.gpg"\r
            Content-Disposition: attachment; filename="bytes.bin.gpg"\r
            Content-Transfer-Encoding: base64\r
            \r
            \(TransferEncoding.encodeBase64(material.attachment))--m--\r

            """.utf8)
        #expect(try Self.blocks(eml, passwords: Self.passwords) == [
            .plainText("The password is the usual one.", signature: .none),
            .decryptedText("Inline, by password\nline 2", signature: .none),
            .attachment(MailAttachment(name: "bytes.bin", mediaType: "application/octet-stream", data: Array(0...255), wasEncrypted: true)),
        ])
        // Without the password: each encrypted part says so, and the attachment is still offered as it came.
        let without = try Self.blocks(eml, passwords: [])
        #expect(without.count == 4)
        #expect(without[1] == .error(.needsPassword) && without[2] == .error(.needsPassword))
        if case .attachment(let file) = without[3] { #expect(file.name == "bytes.bin.gpg" && !file.wasEncrypted) } else {
            Issue.record("the attachment must still be offered: \(without)")
        }
        let wrong = try Self.blocks(eml, passwords: [Array("wrong".utf8)])
        #expect(wrong[1] == .error(.wrongPassword) && wrong[2] == .error(.wrongPassword))
    }

    @Test func aMessageForAKeyAndAPasswordOpensWithEither() async throws {
        let eml = MailGPGTests.pgpMIME(try await Self.material().keyAndPassword)
        let ed = try Fixtures.certificate("ed.sec.asc"), rsa = try Fixtures.certificate("rsa.sec.asc")
        #expect(try Self.blocks(eml, keys: [ed], passphrases: [Fixtures.passphrase], passwords: []) == Self.decryptedEntity)
        #expect(try Self.blocks(eml, passwords: Self.passwords) == Self.decryptedEntity)
        #expect(try Self.blocks(eml, keys: [rsa], passphrases: [Fixtures.passphrase], passwords: Self.passwords) == Self.decryptedEntity)
        // Neither: a password would do, so that is what is asked for; the locked matching key is named first.
        #expect(try Self.blocks(eml, keys: [rsa], passphrases: [Fixtures.passphrase], passwords: []) == [.error(.needsPassword)])
        #expect(try Self.blocks(eml, keys: [ed], passphrases: [], passwords: []) == [.error(.needsPassphrase)])
        #expect(try Self.blocks(eml, keys: [ed], passphrases: [], passwords: [Array("wrong".utf8)]) == [.error(.wrongPassword)])
    }

    @Test func composerEncryptsToAPasswordAndTheReaderOpensIt() throws {
        var composer = MailComposer(from: "Bob <bob@example.org>", to: ["Alice <alice@example.org>"], subject: "by password",
                                    text: "Only the password opens this.\n", date: Date(timeIntervalSince1970: TimeInterval(Fixtures.now)))
        composer.passwords = Self.passwords
        composer.attachments = [MailAttachment(name: "a.txt", mediaType: "text/plain", data: Array("attached\n".utf8))]
        let eml = try composer.compose()
        #expect(try Self.blocks(eml, passwords: Self.passwords) == [
            .decryptedText("Only the password opens this.", signature: .none),
            .attachment(MailAttachment(name: "a.txt", mediaType: "text/plain", data: Array("attached\n".utf8), wasEncrypted: true)),
        ])
        #expect(try Self.blocks(eml, passwords: []) == [.error(.needsPassword)])
        #expect(try Self.blocks(eml, passwords: [Array("nope".utf8)]) == [.error(.wrongPassword)])
    }

    @Test func gpgDecryptsTheComposersPasswordMail() async throws {
        var composer = MailComposer(from: "Bob <bob@example.org>", to: ["Alice <alice@example.org>"], subject: "s", text: "For gpg.\n")
        composer.passwords = Self.passwords
        let root = try MIMEParser(limits: MailLimits()).parsingCopy(try composer.compose())
        let encrypted = try root.parts[1].decodedBody()
        let inner = try await Blocking.run {
            let gpg = try GPG()
            return try gpg(["--decrypt"], input: encrypted, passphrase: Self.password)
        }
        #expect(String(decoding: inner, as: UTF8.self).contains("Content-Type: multipart/mixed"))
    }

    /// Oversize: a password message past the message size limit is refused whole; one whose compressed
    /// content would expand past it is an error block, not a 4 MiB allocation.
    @Test func oversizePasswordMail() async throws {
        let (bomb, small) = try await Blocking.run {
            let gpg = try GPG()
            return (try gpg(["--armor", "--symmetric", "--compress-algo", "zlib", "-o", "-"], input: [UInt8](repeating: 0x41, count: 4 << 20),
                            passphrase: Self.password),
                    try gpg(["--armor", "--symmetric", "-o", "-"], input: Array("small".utf8), passphrase: Self.password))
        }
        var limits = MailLimits()
        limits.maxBytes = 1 << 20
        let eml = MailGPGTests.pgpMIME(bomb)
        #expect(eml.count < limits.maxBytes)
        let blocks = try MailReader.read(eml: eml, keys: [], passphrases: [], passwords: Self.passwords, verifyWith: [], now: Self.later, limits: limits).blocks
        #expect(blocks == [.error(.formatError("malformed OpenPGP data: compressed data expands beyond \(1 << 20) bytes"))])
        limits.maxBytes = 100
        #expect(throws: MailError.tooLarge(limit: 100)) {
            try MailReader.read(eml: MailGPGTests.pgpMIME(small), keys: [], passphrases: [], passwords: Self.passwords, verifyWith: [], limits: limits)
        }
    }

    /// Broken password packets and messages: typed per-part errors, never a crash, never "wrong password"
    /// for something no password could open.
    @Test func garbledAndTruncatedPasswordMessages() async throws {
        let binary = try Armor.unwrap(try await Self.material().pgpMIME)
        func eml(_ bytes: [UInt8]) -> [UInt8] { MailGPGTests.pgpMIME(Array(Armor.encode(bytes, as: .message).utf8)) }
        // The SKESK's S2K specifier says "hash algorithm 99": unsupported, with or without a password.
        // gpg writes the SKESK first, with a two-byte header (old format, one-byte length).
        #expect(binary[0] == 0x8C)
        var unknownHash = binary
        unknownHash[2 + 3] = 99  // header, version, cipher, S2K type, then the hash
        for passwords in [[], Self.passwords] {
            guard case .error(let error) = try Self.blocks(eml(unknownHash), passwords: passwords).first else {
                Issue.record("an unreadable password packet must be an error")
                continue
            }
            #expect(error != .wrongPassword && error != .needsPassword, "\(error)")
        }
        // Cut anywhere: a typed error block.
        for cut in stride(from: 1, to: binary.count, by: max(1, binary.count / 40)) {
            let blocks = try Self.blocks(eml(Array(binary.prefix(cut))), passwords: Self.passwords)
            guard case .error = blocks.first else {
                Issue.record("cut at \(cut): \(blocks)")
                continue
            }
        }
        // The encrypted data altered: the MDC catches it once the password opened the session key.
        var altered = binary
        altered[altered.count - 10] ^= 0x01
        #expect(try Self.blocks(eml(altered), passwords: Self.passwords) == [.error(.badMDC)])
        // More copies of the password packet than the 32 tried: still a typed answer.
        let skeskLength = 2 + Int(binary[1])
        let many = Array((0..<34).map { _ in binary.prefix(skeskLength) }.joined()) + binary.dropFirst(skeskLength)
        #expect(try Self.blocks(eml(many), passwords: [Array("wrong".utf8)]) == [.error(.wrongPassword)])
    }
}
