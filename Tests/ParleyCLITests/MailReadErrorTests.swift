import Foundation
import ParleyTestSupport
import Testing

/// FlowCrypt's decryption error kinds (key_mismatch, use_password, wrong_password, need_passphrase, no_mdc, bad_mdc,
/// format, other), each made by a real message — scripts/test-fixtures/mail_interop.py --set errors, with GnuPG 2.2 —
/// and read with `parley mail read N`. Each gives one sentence in plain words, the process ends normally, and the
/// headers and the other parts of the message still show; no error code, key material or plaintext is printed.
@Suite("parley mail read: decryption errors", .serialized, .offThePool)
struct MailReadErrorTests {
    let people: MailPeople
    /// The text every encrypted message of the error set holds.
    static let secret = "The vault code is 7351."

    init() throws {
        people = try MailPeople("parley-mail-errors")
    }

    /// `parley mail read` on the message with `subject`; checks what every read must show and, unless it `opens`,
    /// what a failed one must not.
    func read(_ subject: String, in list: String, passphraseFile: String?, extra: [String] = [],
              environment: [String: String] = [:], opens: Bool = false) async throws -> String {
        let number = try MailPeople.listed(subject, in: list).number
        let result = try await people.parley(people.withKeys(["mail", "read", number] + extra, passphraseFile: passphraseFile),
                                             environment: environment)
        #expect(result.status == 0, "\(subject): exit \(result.status): \(result.stderr)")
        #expect(result.stdout.contains("From:    Bob <\(MailPeople.bob)>\n") && result.stdout.contains("Subject: \(subject)\n"), "\(result.stdout)")
        if !opens { Self.expectPlainWords(result.stdout + result.stderr, subject) }
        return result.stdout
    }

    /// No API codes, no type names, no key or session-key bytes, no armor, no pass phrase.
    static func expectPlainWords(_ output: String, _ subject: String) {
        let codes = ["key_mismatch", "use_password", "wrong_password", "need_passphrase", "no_mdc", "bad_mdc", "keyMismatch",
                     "needsPassphrase", "wrongPassphrase", "noMDC", "badMDC", "formatError", "PGPError", "MailError", "Swift/", "Fatal error"]
        for code in codes { #expect(!output.contains(code), "\(subject): \(code) in \(output)") }
        #expect(output.range(of: "[0-9A-Fa-f]{32,}", options: .regularExpression) == nil, "\(subject): hex bytes in \(output)")
        #expect(!output.contains("-----BEGIN") && !output.contains("ann's key pass phrase") && !output.contains("not ann's"), "\(output)")
    }

    @Test func eachBrokenOrForeignMessageSaysWhatIsWrongInOneSentence() async throws {
        _ = try await people.exchangeKeys()
        let messages = try people.deliver(set: "errors")
        #expect(messages.count == 8, "\(messages.keys.sorted())")
        #expect(try #require(messages["07-garbage"]).contains("Content-Type: text/plain"))
        let list = try await people.addAccountAndSync()
        let pass = people.path("pass")
        let cases: [(subject: String, sentence: String)] = [
            ("For Carol only", "the message is encrypted to a key you do not have"),                                 // key_mismatch
            ("Without MDC", "the encrypted data has no integrity protection (no MDC); refusing to decrypt"),        // no_mdc
            ("Altered on the way", "the encrypted data failed its integrity check (MDC): it was altered"),          // bad_mdc
            ("Cut short", "malformed OpenPGP data: bad ASCII armor: no matching END line"),                         // format
            ("Garbage inside", "malformed OpenPGP data: bad ASCII armor: invalid base64"),                          // format
            ("Unusual cipher", "unsupported OpenPGP feature: symmetric cipher Camellia-256"),                       // other
        ]
        for (subject, sentence) in cases {
            let shown = try await read(subject, in: list, passphraseFile: pass)
            #expect(shown.contains("[could not read a part: \(sentence)]"), "\(subject): \(shown)")
            #expect(!shown.contains(Self.secret) && !shown.contains("── decrypted"), "\(subject): \(shown)")
        }
        // An inline block that fails leaves the text around it readable.
        let garbage = try await read("Garbage inside", in: list, passphraseFile: pass)
        #expect(garbage.contains("── plain text, not signed ──\nHello Ann,\n[could not read a part:") && garbage.contains("── plain text, not signed ──\nBob"), "\(garbage)")
        // The same key and pass phrase open a sound message: the failures above are the messages', not the set-up's.
        #expect(try await read("Needs your key", in: list, passphraseFile: pass, opens: true).contains("── decrypted, signed by"))
    }

    @Test func passPhrasesAndPasswordsThatAreWrongOrMissingAreNamed() async throws {
        _ = try await people.exchangeKeys()
        _ = try people.deliver(set: "errors")
        let list = try await people.addAccountAndSync()
        try Data("not ann's pass phrase\n".utf8).write(to: URL(fileURLWithPath: people.path("wrong")))
        try Data("a password for the message\n".utf8).write(to: URL(fileURLWithPath: people.path("password")))
        try Data("not the password\n".utf8).write(to: URL(fileURLWithPath: people.path("wrong-password")))
        let noPassphrase = ["PARLEY_PGP_PASSPHRASE": "", "PARLEY_PGP_PASSWORD": ""]

        // wrong_password: Ann's key with a wrong pass phrase.
        let wrong = try await read("Needs your key", in: list, passphraseFile: people.path("wrong"))
        #expect(wrong.contains("[could not read a part: wrong pass phrase for the secret key]"), "\(wrong)")

        // need_passphrase: no file, no PARLEY_PGP_PASSPHRASE, no terminal: the message is shown, the part says what to do.
        let none = try await read("Needs your key", in: list, passphraseFile: nil, environment: noPassphrase)
        #expect(none.contains("[could not read a part: the secret key is protected: a pass phrase is needed (pass --passphrase-file FILE or set PARLEY_PGP_PASSPHRASE)]"), "\(none)")
        let fromEnvironment = try await read("Needs your key", in: list, passphraseFile: nil, environment: ["PARLEY_PGP_PASSPHRASE": people.passphrase], opens: true)
        #expect(fromEnvironment.contains(Self.secret), "\(fromEnvironment)")

        // use_password: encrypted with a password only; `parley mail read` says how to give it, and opens it when given.
        let withoutPassword = try await read("By password", in: list, passphraseFile: people.path("pass"))
        #expect(withoutPassword.contains("[could not read a part: the message is encrypted with a password: give the password to read it (pass --password or --password-file FILE)]"), "\(withoutPassword)")
        let wrongPassword = try await read("By password", in: list, passphraseFile: nil, extra: ["--password-file", people.path("wrong-password")], environment: noPassphrase)
        #expect(wrongPassword.contains("[could not read a part: wrong password for the encrypted message]"), "\(wrongPassword)")
        #expect(!wrongPassword.contains("not the password"))
        let opened = try await read("By password", in: list, passphraseFile: nil, extra: ["--password-file", people.path("password")], environment: noPassphrase, opens: true)
        #expect(opened.contains("── decrypted, not signed ──\n\(Self.secret)"), "\(opened)")
        for output in [wrong, none, withoutPassword, wrongPassword] {
            #expect(!output.contains(Self.secret) && !output.contains("a password for the message"), "\(output)")
        }
    }
}
