import Foundation
import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// What `parley pgp` shows that ParleyPGP decides: the advice for each error, algorithm names, signature
/// report lines, the text of a read mail, and which key store applies.
@Suite(.offThePool) struct PGPPresentationTests {
    @Test func everyErrorHasAdviceThatSaysWhatToDo() {
        let all: [PGPError] = [.badArmor("x"), .malformed("x"), .unsupported("x"), .badSignature("x"), .needsPassphrase, .wrongPassphrase,
                               .noMatchingKey, .missingMDC, .badMDC, .truncated, .unusableKey("x"), .notEncrypted, .trailingData]
        for error in all { #expect(!error.advice().isEmpty) }
        #expect(PGPError.noMatchingKey.advice(keyring: "/k").contains("secret keys (keyring /k) or passwords"))
        #expect(!PGPError.noMatchingKey.advice().contains("keyring"))
        #expect(PGPError.badMDC.advice() == "\(PGPError.badMDC); nothing was written. Ask the sender for a fresh copy")
        #expect(PGPError.badSignature("why").advice() == PGPError.badSignature("why").description)
    }

    @Test func algorithmNames() throws {
        #expect(try Fixtures.certificate("ed.pub.asc").primaryKey.algorithmName == "ed25519")
        #expect(try Fixtures.certificate("rsa.pub.asc").primaryKey.algorithmName.hasPrefix("rsa"))
    }

    @Test func reportLinesNameAGoodSignerAndAdviseOnOthers() throws {
        let key = try Fixtures.certificate("ed.sec.asc")
        let signer = try key.unlockedSigningKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)
        let data = Array("report".utf8)
        let signed = Fixtures.now - 100
        let signature = try Signer.detached(data, signers: [signer], now: signed)
        let good = try Verification.detached(signature, data: data, certificates: [key.publicCertificate], now: Fixtures.now)
        let name = key.userIDs.first?.string ?? ""
        #expect(VerificationReport.line(good[0], certificates: [key.publicCertificate])
                == "Good signature from \(name) (\(key.fingerprint.upperHex)), made \(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(signed))))")
        let unknown = try Verification.detached(signature, data: data, certificates: [], now: Fixtures.now)
        #expect(VerificationReport.line(unknown[0], certificates: []).hasPrefix("BAD or unverifiable signature by "))
        let altered = try Verification.detached(signature, data: Array("altered".utf8), certificates: [key.publicCertificate], now: Fixtures.now)
        #expect(VerificationReport.line(altered[0], certificates: [key.publicCertificate]).contains("import the signer's certificate"))
    }

    @Test func aMailReadsAsLabelledText() throws {
        let headers = try MailHeaders.of(eml: Array("From: a@example.org\r\nSubject: Hi\r\n\r\n".utf8))
        let mail = Mail(headers: headers, blocks: [
            .plainText("hello", signature: .none),
            .decryptedText("secret", signature: .valid(fingerprint: [0xAB, 0x01])),
            .attachment(MailAttachment(name: "../../etc/passwd", mediaType: "text/plain", data: [1, 2, 3], wasEncrypted: true)),
            .unsupportedCharset("x-weird"),
            .error(.needsPassword),
        ])
        let (lines, saved) = MailTranscript.lines(mail)
        #expect(saved == 0)
        #expect(lines[0] == "From:    a@example.org")
        #expect(lines[1] == "Subject: Hi")
        #expect(lines[2] == "")
        #expect(lines[3] == "── plain text, not signed ──")
        #expect(lines[5] == "── decrypted, signed by AB01 (good signature) ──")
        // The name is stripped of its path.
        #expect(lines[7].hasPrefix("[attachment] passwd ("))
        #expect(lines[7].hasSuffix("(3 B, text/plain, decrypted)"))
        #expect(lines[8] == "[a part in the unsupported charset x-weird is not shown]")
        #expect(lines[9].hasSuffix("(pass --password or --password-file FILE)]"))
        var names: [String] = []
        let withSaving = MailTranscript.lines(mail) { attachment in
            names.append(attachment.safeName)
            return "/saved/\(attachment.safeName)"
        }
        #expect(withSaving.saved == 1)
        #expect(withSaving.lines[7].hasSuffix(" → saved to /saved/\(names[0])"))
        #expect(MailTranscript.label(.bad("altered"), encrypted: false) == "── plain text, BAD SIGNATURE: altered ──")
        #expect(MailTranscript.label(.unknownSigner(keyID: nil), encrypted: true) == "── decrypted, signed by an unknown key  ──")
    }

    @Test func whetherAMailMayHoldSomethingEncrypted() {
        #expect(MailTranscript.mayHoldEncrypted(Array("-----BEGIN PGP MESSAGE-----".utf8)))
        #expect(MailTranscript.mayHoldEncrypted(Array("Content-Type: Multipart/Encrypted;".utf8)))
        #expect(MailTranscript.mayHoldEncrypted(Array("filename=\"report.gpg\"".utf8)))
        // The MIME type in any case, at the very start and the very end; cut short or broken, it is not there.
        #expect(MailTranscript.mayHoldEncrypted(Array("MULTIPART/ENCRYPTED".utf8)))
        #expect(MailTranscript.mayHoldEncrypted(Array("/ a/b Content-Type: multipart/eNcRyPtEd".utf8)))
        #expect(!MailTranscript.mayHoldEncrypted(Array("Content-Type: multipart/encrypte".utf8)))
        #expect(!MailTranscript.mayHoldEncrypted(Array("/multipart/ encrypted multipart-encrypted".utf8)))
        #expect(!MailTranscript.mayHoldEncrypted(Array("-----BEGIN PGP MESSAGE----".utf8)))
        #expect(!MailTranscript.mayHoldEncrypted(Array("Subject: lunch\r\n\r\nsee you".utf8)))
        #expect(!MailTranscript.mayHoldEncrypted([]))
        // Garbage (not UTF-8) and oversize input: decided without a crash, looking at the first 64 MiB only.
        #expect(!MailTranscript.mayHoldEncrypted((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131) | 0x80 }))
        var huge = [UInt8](repeating: 0x41, count: (64 << 20) + 10)
        huge.replaceSubrange(huge.count - 5..<huge.count, with: Array(".gpg!".utf8))
        #expect(!MailTranscript.mayHoldEncrypted(huge))
    }

    @Test func whichKeyStoreApplies() throws {
        #expect(try PGPKeyStoreChoice.choose(keyring: "/k", environment: ["PARLEY_PGP_KEYRING": "/e"], account: "A@x", accounts: ["a@x", "b@x"],
                                             homePath: "/h") == .keyring("/k"))
        #expect(try PGPKeyStoreChoice.choose(keyring: nil, environment: ["PARLEY_PGP_KEYRING": "/e"], account: nil, accounts: [], homePath: "/h")
                == .keyring("/e"))
        #expect(try PGPKeyStoreChoice.choose(keyring: nil, environment: ["PARLEY_PGP_KEYRING": ""], account: nil, accounts: [], homePath: "/h")
                == .keyring("/h/pgp"))
        #expect(try PGPKeyStoreChoice.choose(keyring: nil, environment: [:], account: "Ada@Example.org", accounts: [], homePath: "/h")
                == .vault(email: "ada@example.org"))
        #expect(try PGPKeyStoreChoice.choose(keyring: nil, environment: [:], account: nil, accounts: ["a@x"], homePath: "/h")
                == .vault(email: "a@x"))
        #expect(throws: PGPKeyStoreError.self) {
            try PGPKeyStoreChoice.choose(keyring: nil, environment: [:], account: nil, accounts: ["a@x", "b@x"], homePath: "/h")
        }
    }

    @Test func aKeyListsAsGPGShowsIt() throws {
        let key = try Fixtures.certificate("ed.sec.asc")
        let lines = key.listing(secret: true, now: Fixtures.now)
        #expect(lines[0].hasPrefix("sec  \(key.fingerprint.upperHex)  ed25519  "))
        #expect(lines.count == 1 + key.userIDs.count)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("     ") })
        let revoked = try key.revoked(by: key.unlockedPrimaryKey(passphrases: [Fixtures.passphrase]), now: Fixtures.now)
        #expect(revoked.listing(secret: false, now: Fixtures.now)[0].hasSuffix(" [revoked]"))
        #expect(revoked.listing(secret: false, now: Fixtures.now)[0].hasPrefix("pub  "))
    }

    @Test func aPassphraseHasTwelveBytesAtLeast() throws {
        try PGPPassphrase.check(Array("twelve bytes".utf8))
        #expect(throws: PGPKeyStoreError.self) { try PGPPassphrase.check(Array("eleven byte".utf8)) }
        #expect(throws: PGPKeyStoreError.self) { try PGPPassphrase.check([]) }
        let refused = #expect(throws: PGPKeyStoreError.self) { try PGPPassphrase.check([1], new: true) }
        #expect(refused?.description == "the new pass phrase is shorter than 12 characters: choose a longer one")
    }
}
