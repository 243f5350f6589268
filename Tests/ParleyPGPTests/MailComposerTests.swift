import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Composed PGP/MIME messages: read back by Parley, and by the real gpg.
@Suite(.serialized) struct MailComposerTests {
    /// After the fixture keys were made (a signature may not predate its key) and before any test run.
    static let date = Date(timeIntervalSince1970: 1_795_330_000)
    static let files = [
        MailAttachment(name: "ünï \"quoted\".txt", mediaType: "text/plain", data: Array("attached text\n".utf8)),
        MailAttachment(name: "data.bin", mediaType: "application/octet-stream", data: (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }),
    ]

    static func composer() throws -> MailComposer {
        var composer = MailComposer(from: "Bob Ed <bob@example.org>", to: ["Alice RSA <alice@example.org>"],
                                    subject: "Grüße\r\nBcc: victim@example.org", text: "Hello Alice,\nsee the files.\n", date: date)
        composer.cc = ["carol@example.org"]
        composer.recipients = [try Fixtures.certificate("rsa.pub.asc")]
        composer.sender = try Fixtures.certificate("ed.pub.asc")
        composer.signer = try Fixtures.certificate("ed.sec.asc").unlockedSigningKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)
        composer.attachments = files
        return composer
    }

    /// The message with its armored block cut out: what must not depend on the OpenPGP randomness.
    static func structure(_ eml: [UInt8]) -> String {
        let text = String(decoding: eml, as: UTF8.self)
        guard let begin = text.range(of: "-----BEGIN PGP MESSAGE-----"), let end = text.range(of: "-----END PGP MESSAGE-----") else { return text }
        return String(text[..<begin.lowerBound] + text[end.upperBound...])
    }

    @Test func deterministicStructureAndSafeHeaders() throws {
        var first = SplitMix64(state: 42), second = SplitMix64(state: 42)
        let composer = try Self.composer()
        let one = try composer.compose(using: &first), two = try composer.compose(using: &second)
        #expect(Self.structure(one) == Self.structure(two))
        #expect(one != two)  // the session key is fresh each time
        let root = try MIMEParser(limits: MailLimits()).parsingCopy(one)
        #expect(root.headers["Bcc"] == nil)
        #expect(root.headers.decoded("Subject") == "Grüße Bcc: victim@example.org")
        #expect(root.headers["Date"] == "Sun, 22 Nov 2026 06:46:40 +0000")
        #expect(root.headers["Cc"] == "carol@example.org")
        #expect(root.contentType.value == "multipart/encrypted")
        #expect(root.contentType.parameters["protocol"] == "application/pgp-encrypted")
        #expect(root.parts.map(\.contentType.value) == ["application/pgp-encrypted", "application/octet-stream"])
        #expect(try root.parts[0].decodedBody() == Array("Version: 1\r\n".utf8))
        #expect(!String(decoding: one, as: UTF8.self).contains("\n\n"))  // CRLF throughout
    }

    @Test func composedMailReadsBackForEveryRecipient() throws {
        let eml = try Self.composer().compose()
        let sender = try Fixtures.certificate("ed.pub.asc")
        for key in ["rsa.sec.asc", "ed.sec.asc"] {
            let mail = try MailReader.read(eml: eml, keys: [try Fixtures.certificate(key)], passphrases: [Fixtures.passphrase], verifyWith: [sender])
            let signed = SignatureStatus.valid(fingerprint: sender.fingerprint)
            #expect(mail.blocks == [.decryptedText("Hello Alice,\nsee the files.", signature: signed)]
                    + Self.files.map { .attachment(MailAttachment(name: $0.name, mediaType: $0.mediaType, data: $0.data, wasEncrypted: true, signature: signed)) },
                    "\(key)")
        }
        #expect(throws: PGPError.unusableKey("no recipients or passwords")) {
            try MailComposer(from: "a", to: [], subject: "s", text: "t").compose()
        }
    }

    @Test func gpgDecryptsComposedMail() async throws {
        let eml = try Self.composer().compose()
        let root = try MIMEParser(limits: MailLimits()).parsingCopy(eml)
        let encrypted = try root.parts[1].decodedBody()
        let (output, status) = try await Blocking.run {
            let gpg = try GPG()
            try gpg(["--import"], input: Fixtures.bytes("rsa.sec.asc"))
            try gpg(["--import"], input: Fixtures.bytes("ed.pub.asc"))
            let statusFile = gpg.home.appendingPathComponent("status").path
            let output = try gpg(["--status-file", statusFile, "--decrypt"], input: encrypted)
            return (output, try String(contentsOfFile: statusFile, encoding: .utf8))
        }
        #expect(status.contains("[GNUPG:] GOODSIG"))
        #expect(status.contains("[GNUPG:] DECRYPTION_OKAY"))
        // What gpg decrypted is the inner MIME entity; Parley's parser reads the attachments back from it.
        let inner = try MIMEParser(limits: MailLimits()).parsingCopy(output)
        #expect(inner.contentType.value == "multipart/mixed")
        #expect(try inner.parts.map { try $0.decodedBody() } == [Array("Hello Alice,\nsee the files.\n".utf8)] + Self.files.map(\.data))
        #expect(inner.parts.dropFirst().map(\.filename) == Self.files.map(\.name))
    }
}

extension MIMEParser {
    /// Parses a whole message with a fresh part count.
    func parsingCopy(_ bytes: [UInt8]) throws -> MIMEPart {
        var parser = self
        return try parser.parse(bytes[...], depth: 0)
    }
}
