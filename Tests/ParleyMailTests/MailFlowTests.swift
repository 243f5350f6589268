import Foundation
@testable import ParleyMail
import ParleyPGP
import ParleyTestSupport
import Testing

/// The flows of `parley mail` that live in ParleyMail: whom a reply goes to, the quote, attachments, the
/// encryption rule of an outgoing message, and what the person is told — with hostile headers and sizes.
@Suite struct MailFlowTests {
    static func headers(_ text: String) throws -> MailHeaders { try MailHeaders.of(eml: Array((text + "\r\n\r\n").utf8)) }

    @Test func aReplyGoesToReplyToOrFromAndWithAllToTheOthersButMe() throws {
        let headers = try Self.headers("From: Bob <bob@example.org>\r\nTo: ann@example.org, Cy <cy@example.org>\r\nCc: bob@example.org, dee@example.org\r\nSubject: Lunch")
        let one = try MailReplyAddressing(replyingTo: headers, id: 1, me: "Ann@Example.org", all: false)
        #expect(one.to == ["bob@example.org"])
        #expect(one.cc.isEmpty)
        #expect(one.subject == "Re: Lunch")
        let all = try MailReplyAddressing(replyingTo: headers, id: 1, me: "Ann@Example.org", all: true)
        #expect(all.to == ["bob@example.org"])
        #expect(all.cc == ["cy@example.org", "dee@example.org"])
        let replyTo = try Self.headers("From: bob@example.org\r\nReply-To: list@example.org\r\nSubject: RE: again")
        let toList = try MailReplyAddressing(replyingTo: replyTo, id: 2, me: "ann@example.org", all: false)
        #expect(toList.to == ["list@example.org"])
        #expect(toList.subject == "RE: again")
    }

    @Test func aMessageWithoutASenderIsRefusedNamingIt() throws {
        for text in ["Subject: no sender", "From: not an address at all", "From: <>\r\nSubject: \u{1}\u{2}"] {
            #expect(throws: MailFlowError("message 7 has no sender address to reply to")) {
                try MailReplyAddressing(replyingTo: try Self.headers(text), id: 7, me: "ann@example.org", all: true)
            }
        }
        let noSubject = try MailReplyAddressing(replyingTo: try Self.headers("From: bob@example.org"), id: 1, me: "a@b.c", all: false)
        #expect(noSubject.subject == "Re: ")
    }

    @Test func theQuoteCarriesTheTextOnlyAndAtMost64KiB() throws {
        let headers = try Self.headers("From: Bob <bob@example.org>\r\nDate: Thu, 26 Nov 2026 09:00:00 +0000")
        let mail = Mail(headers: headers, blocks: [
            .plainText("first\n\nsecond", signature: .none),
            .attachment(MailAttachment(name: "a.bin", mediaType: "application/octet-stream", data: [1])),
        ])
        #expect(MailOutgoing.quoting("Yes.", original: mail)
                == "Yes.\n\nOn Thu, 26 Nov 2026 09:00:00 +0000, Bob <bob@example.org> wrote:\n> first\n>\n> second\n")
        let empty = Mail(headers: MailHeaders(), blocks: [.error(.needsPassword)])
        #expect(MailOutgoing.quoting("Yes.", original: empty) == "Yes.")
        let huge = Mail(headers: MailHeaders(), blocks: [.plainText(String(repeating: "x", count: 1 << 20), signature: .none)])
        let quoted = MailOutgoing.quoting("", original: huge)
        #expect(quoted.hasPrefix("\n\nYou wrote:\n> x"))
        #expect(quoted.utf8.count < 64 * 1024 + 100)
    }

    @Test func anAttachmentIsAFileNamedByItsLastComponent() throws {
        let directory = try TemporaryDirectory("parley-mail-attach")
        let path = directory.url.appendingPathComponent("report.pdf").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let attachment = try MailOutgoing.attachment(path)
        #expect(attachment.name == "report.pdf")
        #expect(attachment.data == [1, 2, 3])
        #expect(throws: MailFlowError("cannot read /nonexistent/x")) { try MailOutgoing.attachment("/nonexistent/x") }
    }

    @Test func theReportSaysHowItWentAndWhereTheCopyIs() {
        let prepared = MailOutgoing.Prepared(message: [], encrypted: true, learned: [])
        var outcome = MailSubmission.Outcome()
        outcome.sentFolder = "Sent"
        let sent = MailOutgoing.report(outcome, recipients: ["a@x", "b@x"], prepared: prepared)
        #expect(sent.out == ["Sent to a@x, b@x, encrypted and signed.", "A copy is in Sent."])
        #expect(sent.warning == nil)
        outcome.sentFolder = nil
        outcome.copyProblem = "no Sent folder"
        let plain = MailOutgoing.report(outcome, recipients: ["a@x"], prepared: MailOutgoing.Prepared(message: [], encrypted: false, learned: []))
        #expect(plain.out == ["Sent to a@x, unencrypted (--plain)."])
        #expect(plain.warning == "The message was sent, but no copy could be kept in the Sent folder: no Sent folder")
    }

    @Test func nothingGoesUnencryptedUnlessPlainSaysSo() async throws {
        let home = try TemporaryDirectory("parley-mail-flow")
        let settings = MailAccountSettings(email: "ann@example.org", imap: MailServer(host: "127.0.0.1", port: 1, security: .tls),
                                           username: "ann@example.org", password: "x")
        let store = try MailStore.create(home: home.url, settings: settings, pin: nil)
        let keyring = try PGPKeyring(directory: home.url.appendingPathComponent("pgp").path)
        let composer = MailComposer(from: "ann@example.org", to: ["bob@example.org"], subject: "Hi", text: "Hello")
        let now = UInt32(Date().timeIntervalSince1970)
        await #expect(throws: MailFlowError("not sent: bob@example.org has no OpenPGP key here; import it with `parley pgp keys import FILE`, or send unencrypted with --plain")) {
            try await MailOutgoing.message(composer, recipients: ["bob@example.org"], store: store, settings: settings, plain: false, lookup: false,
                                           keyring: keyring, passphrase: { Issue.record("asked for a pass phrase"); return [] }, now: now, asking: { _ in })
        }
        let plain = try await MailOutgoing.message(composer, recipients: ["bob@example.org"], store: store, settings: settings, plain: true,
                                                   lookup: false, keyring: keyring, passphrase: { [] }, now: now, asking: { _ in })
        #expect(!plain.encrypted)
        #expect(String(decoding: plain.message, as: UTF8.self).contains("Subject: Hi"))
        #expect(!String(decoding: plain.message, as: UTF8.self).contains("-----BEGIN PGP MESSAGE-----"))

        // With Bob's certificate and Ann's own key: encrypted and signed, the pass phrase asked once.
        let passphrase = Array("a long pass phrase".utf8)
        let bob = try KeyGenerator.generate(userIDs: ["Bob <bob@example.org>"], passphrase: passphrase, now: now)
        try keyring.store(bob.publicCertificate)
        await #expect(throws: MailFlowError("you have no secret key for ann@example.org to sign with: make one with `parley pgp keys generate`")) {
            try await MailOutgoing.message(composer, recipients: ["bob@example.org"], store: store, settings: settings, plain: false, lookup: false,
                                           keyring: keyring, passphrase: { passphrase }, now: now, asking: { _ in })
        }
        try keyring.store(try KeyGenerator.generate(userIDs: ["Ann <ann@example.org>"], passphrase: passphrase, now: now))
        await #expect(throws: MailFlowError(PGPError.wrongPassphrase.advice())) {
            try await MailOutgoing.message(composer, recipients: ["bob@example.org"], store: store, settings: settings, plain: false, lookup: false,
                                           keyring: keyring, passphrase: { Array("wrong".utf8) }, now: now, asking: { _ in })
        }
        var asked = 0
        let encrypted = try await MailOutgoing.message(composer, recipients: ["bob@example.org"], store: store, settings: settings, plain: false,
                                                       lookup: false, keyring: keyring, passphrase: { asked += 1; return passphrase }, now: now,
                                                       asking: { _ in })
        #expect(encrypted.encrypted)
        #expect(asked == 1)
        #expect(encrypted.learned.isEmpty)
        #expect(String(decoding: encrypted.message, as: UTF8.self).contains("-----BEGIN PGP MESSAGE-----"))
    }
}
