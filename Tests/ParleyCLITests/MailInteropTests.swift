import Foundation
import ParleyTestSupport
import Testing

/// Mail the way other clients write it, read with the real `parley` binary as a person would: Bob's messages are
/// made at test time by scripts/test-fixtures/mail_interop.py (Debian's python3 `email` package and GnuPG 2.2),
/// delivered by Dovecot, then `parley mail sync`, `list`, `read` and `save`. (The other direction — mail Parley
/// sends, fetched with imaplib and checked by `gpg --decrypt` — is in MailCommandTests.)
@Suite("parley mail interoperability", .serialized, .offThePool)
struct MailInteropTests {
    let people: MailPeople

    init() throws {
        people = try MailPeople("parley-mail-interop")
    }

    /// The generator wrote what each message claims to be (so a reading test below cannot pass on the wrong input).
    static func checkTheSetIsWhatItSays(_ messages: [String: String]) throws {
        #expect(messages.count == 9, "\(messages.keys.sorted())")
        let pgpMIME = try #require(messages["01-pgpmime"])
        #expect(pgpMIME.contains("multipart/encrypted") && pgpMIME.contains("application/pgp-encrypted") && !pgpMIME.contains("north gate"))
        #expect(try #require(messages["03-inline"]).contains("Content-Type: text/plain") && messages["03-inline"]!.contains("-----BEGIN PGP MESSAGE-----"))
        let signed = try #require(messages["04-signed"])
        #expect(signed.contains("multipart/signed") && signed.contains("micalg=\"pgp-sha256\"") && signed.contains("-----BEGIN PGP SIGNATURE-----"))
        #expect(try #require(messages["05-signed-tampered"]).contains("budget rejected"))
        #expect(try #require(messages["06-clearsigned"]).contains("-----BEGIN PGP SIGNED MESSAGE-----"))
        let file = try #require(messages["07-encrypted-file"])
        #expect(file.contains("report.bin.pgp") && file.contains("Content-Transfer-Encoding: base64") && !file.contains("-----BEGIN PGP"))
        let latin = try #require(messages["08-latin1"])
        #expect(latin.contains("charset=\"iso-8859-1\"") && latin.contains("quoted-printable") && latin.contains("=?iso-8859-1?q?"))
        let utf8 = try #require(messages["09-utf8-base64"])
        #expect(utf8.contains("charset=\"utf-8\"") && utf8.contains("Content-Transfer-Encoding: base64") && utf8.contains("=?utf-8?b?"))
    }

    @Test func listAndReadMailThatOtherClientsWrite() async throws {
        let bob = try await people.exchangeKeys()
        try Self.checkTheSetIsWhatItSays(try people.deliver(set: "interop"))
        let list = try await people.addAccountAndSync()
        let good = "signed by \(bob) (good signature) ──"

        // Subjects are decoded (RFC 2047 Q in ISO-8859-1, B in UTF-8); PGP/MIME mail is marked as encrypted.
        #expect(try MailPeople.listed("Plan for the weekend", in: list).line.hasSuffix("[encrypted]"))
        #expect(try MailPeople.listed("Bytes inside", in: list).line.hasSuffix("[encrypted]"))
        #expect(!(try MailPeople.listed("Grüße aus Köln", in: list).line.contains("[encrypted]")))
        _ = try MailPeople.listed("Привет из Москвы ✓ 東京", in: list)
        #expect(list.split(separator: "\n").count == 9, "\(list)")

        let read = { (subject: String) async throws -> String in
            let number = try MailPeople.listed(subject, in: list).number
            let result = try await people.parley(people.withKeys(["mail", "read", number], passphraseFile: people.path("pass")))
            #expect(result.status == 0, "\(subject): \(result.stderr)")
            #expect(result.stdout.contains("Subject: \(subject)\n"), "\(result.stdout)")
            return result.stdout
        }

        // PGP/MIME, encrypted and signed.
        let plan = try await read("Plan for the weekend")
        #expect(plan.contains("── decrypted, \(good)\nMeet at the north gate at nine.\nBring the blue folder."), "\(plan)")

        // PGP/MIME with an attachment inside the encrypted entity.
        let bytes = try await read("Bytes inside")
        #expect(bytes.contains("── decrypted, \(good)\nThe bytes are attached."), "\(bytes)")
        #expect(bytes.contains("[attachment] bytes.bin (256 B, application/octet-stream, decrypted)"), "\(bytes)")

        // Inline PGP: the armored block is decrypted in place, the plain text around it kept as plain text.
        let inline = try await read("Inline secret")
        #expect(inline.contains("── plain text, not signed ──\nHi Ann,\n── decrypted, \(good)\nThe key is under the mat.\n── plain text, not signed ──\nBob"), "\(inline)")
        #expect(!inline.contains("BEGIN PGP"), "\(inline)")

        // PGP/MIME signed only: a good signature; one word changed after signing is a bad one, and says so.
        let minutes = try await read("Signed minutes")
        #expect(minutes.contains("── plain text, \(good)\nMinutes of the meeting:\n- budget approved"), "\(minutes)")
        let altered = try await read("Signed minutes, altered")
        #expect(altered.contains("── plain text, BAD SIGNATURE:") && altered.contains("- budget rejected"), "\(altered)")
        #expect(!altered.contains("good signature"), "\(altered)")

        // Inline clearsigned text: verified, dash-escaping undone, armor lines gone.
        let note = try await read("Clearsigned note")
        #expect(note.contains("── plain text, \(good)\nThis note is signed in the clear.\n- a line that starts with a dash"), "\(note)")
        #expect(!note.contains("- - a line") && !note.contains("BEGIN PGP"), "\(note)")

        // A plain message with a separately encrypted (binary OpenPGP) file: the file is decrypted and renamed.
        let report = try await read("Report attached")
        #expect(report.contains("── plain text, not signed ──\nThe report is encrypted separately."), "\(report)")
        #expect(report.contains("[attachment] report.bin (256 B, application/octet-stream, decrypted)"), "\(report)")
        #expect(!report.contains("could not read"), "\(report)")

        // ISO-8859-1 in quoted-printable; UTF-8 in base64.
        #expect(try await read("Grüße aus Köln").contains("── plain text, not signed ──\nGrüße aus Köln. Prêt à partir?"))
        #expect(try await read("Привет из Москвы ✓ 東京").contains("── plain text, not signed ──\nСъешь ещё этих мягких булок. 東京で会いましょう。"))
    }

    @Test func saveGivesEachAttachmentByteForByte() async throws {
        _ = try await people.exchangeKeys()
        _ = try people.deliver(set: "interop")
        let list = try await people.addAccountAndSync()
        let original = Data(0...255)
        #expect(try Data(contentsOf: URL(fileURLWithPath: people.path("messages-interop/bytes.bin"))) == original)

        // Inside a PGP/MIME message, and as a separately encrypted .pgp file beside plain text.
        for (subject, name) in [("Bytes inside", "bytes.bin"), ("Report attached", "report.bin")] {
            let number = try MailPeople.listed(subject, in: list).number
            let target = people.path("saved-\(name)")
            let saved = try await people.parley(people.withKeys(["mail", "save", number, "--attachment", "1", "-o", target], passphraseFile: people.path("pass")))
            #expect(saved.status == 0, "\(subject): \(saved.stderr)")
            #expect(saved.stdout.contains("Saved \(name) (256 B, decrypted)"), "\(saved.stdout)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == original, "\(subject): the saved bytes differ")
        }

        // A plain message has no attachment to save; nothing is written.
        let plain = try MailPeople.listed("Grüße aus Köln", in: list).number
        let none = try await people.parley(people.withKeys(["mail", "save", plain, "--attachment", "1", "-o", people.path("none")]))
        #expect(none.status != 0 && none.stderr.contains("has 0 attachment(s)"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: people.path("none")))
    }
}
