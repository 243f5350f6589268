import Foundation
import ParleyTestSupport
import Testing

/// Autocrypt through the binary against real peers: Bob's header written by Sequoia's `sq`, his mail placed in a
/// real Dovecot, Ann's answer decrypted by GnuPG and her own header read back by `sq` (docs/MAIL.md §6.1).
@Suite("parley mail: Autocrypt", .serialized, .offThePool)
struct MailAutocryptTests {
    let people: MailPeople
    init() throws { people = try MailPeople("parley-mail-autocrypt") }

    func path(_ name: String) -> String { people.path(name) }

    /// Ann's key in a Parley keyring; Bob's (and Carol's) in GnuPG only — Ann has never imported them.
    func makeKeys() async throws -> (bob: String, ann: String) {
        let generated = try await ParleyBinary.runDetached(["pgp", "keys", "generate", "--user-id", "Ann <\(MailPeople.ann)>",
                                                           "--passphrase-file", path("pass"), "--keyring", path("keyring")])
        #expect(generated.status == 0, "\(generated.stderr)")
        let annCert = try await ParleyBinary.runDetached(["pgp", "keys", "export", MailPeople.ann, "--keyring", path("keyring")])
        _ = try people.gpg(["--import"], input: annCert.stdout)
        for person in ["Bob <bob@example.org>", "Carol <carol@example.org>", "Mallory <mallory@example.org>"] {
            _ = try people.gpg(["--quick-gen-key", person, "ed25519", "sign", "never"])
            let address = String(person.split(separator: "<")[1].dropLast())
            _ = try people.gpg(["--quick-add-key", try fingerprint(address), "cv25519", "encr", "never"])
            _ = try people.gpg(["--output", path("\(address).pgp"), "--export", address])
        }
        return (try fingerprint(MailPeople.bob), try fingerprint(MailPeople.ann))
    }

    func fingerprint(_ address: String) throws -> String {
        try people.gpg(["--list-keys", "--with-colons", address]).split(separator: "\n")
            .first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
    }

    /// `sq autocrypt encode-sender` for the address's exported key, as one header line (name included).
    func sqHeader(_ address: String, mutual: Bool = true) throws -> String {
        let made = try ToolRun.run("/usr/bin/sq", ["autocrypt", "encode-sender", "--email", address]
                                   + (mutual ? ["--prefer-encrypt", "mutual"] : []) + [path("\(address).pgp")])
        #expect(made.status == 0, "\(made.output)")
        return made.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func plain(from: String, subject: String, date: String, extra: String = "") -> String {
        "From: \(from)\r\nTo: Ann <ann@example.org>\r\nSubject: \(subject)\r\nDate: \(date)\r\nMIME-Version: 1.0\r\n\(extra)"
            + "Content-Type: text/plain; charset=utf-8\r\n\r\nHello Ann.\r\n"
    }

    @Test func aSendersHeaderIsLearnedUsedAndOursIsSent() async throws {
        let (bob, ann) = try await makeKeys()
        let bobHeader = try sqHeader(MailPeople.bob)
        // Bob writes with his header; Mallory writes claiming to be Bob's key holder (a header for another address).
        try people.dovecot.save(plain(from: "Bob <bob@example.org>", subject: "Hi from Bob", date: "Wed, 25 Nov 2026 10:00:00 +0000",
                                      extra: bobHeader + "\r\n"), user: MailPeople.ann)
        try people.dovecot.save(plain(from: "Mallory <mallory@example.org>", subject: "Not Bob", date: "Wed, 25 Nov 2026 11:00:00 +0000",
                                      extra: try sqHeader("mallory@example.org").replacingOccurrences(of: "addr=mallory@", with: "addr=bob@") + "\r\n"),
                                user: MailPeople.ann)
        _ = try await people.addAccountAndSync()

        let keys = try await people.parley(["mail", "keys"])
        #expect(keys.status == 0, "\(keys.stderr)")
        #expect(keys.stdout.contains("bob@example.org  autocrypt  \(bob)"), "\(keys.stdout)")
        #expect(!keys.stdout.contains("mallory") && keys.stdout.split(separator: "\n").count == 1, "\(keys.stdout)")

        // Ann writes to Bob without ever importing his key: it is encrypted to the key from his header.
        let sink = try await SMTPSink.start(directory: people.scratch.url, tls: "starttls",
                                            certificate: (people.dovecot.certificate, people.dovecot.certificateKey),
                                            login: (MailPeople.ann, MailPeople.imapPassword))
        defer { sink.stop() }
        let smtp = try await people.parley(["mail", "account", "smtp", "--smtp", "127.0.0.1:\(sink.port)"])
        #expect(smtp.status == 0, "\(smtp.stderr)")
        let sent = try await ParleyBinary.runDetached(people.withKeys(["mail", "send", "--home", path("home"), "--to", MailPeople.bob,
                                                                      "--subject", "Re: Hi"], passphraseFile: path("pass")),
                                                     stdin: "Got your key.\n")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("bob@example.org: encrypted to a key from an Autocrypt header (\(bob)), not checked by you"), "\(sent.stdout)")
        let delivered = try #require(sink.messages.first)
        let opened = try people.gpg(["--status-fd", "1", "--decrypt"], input: Self.armored(delivered))
        #expect(opened.contains("[GNUPG:] GOODSIG") && opened.contains(Data("Got your key.\n".utf8).base64EncodedString()), "\(opened)")

        // Our own header, read by Sequoia: Ann's certificate, no secret part.
        try delivered.write(toFile: path("sent.eml"), atomically: true, encoding: .utf8)
        let decoded = try ToolRun.run("/usr/bin/sq", ["autocrypt", "decode", path("sent.eml")])
        #expect(decoded.status == 0 && decoded.output.contains("BEGIN PGP PUBLIC KEY BLOCK"), "\(decoded.output)")
        #expect(!decoded.output.contains("PRIVATE"))
        try decoded.output.write(toFile: path("ann-from-header.asc"), atomically: true, encoding: .utf8)
        let shown = try people.gpg(["--show-keys", "--with-colons", path("ann-from-header.asc")])
        #expect(shown.contains("fpr:::::::::\(ann):") && shown.contains("ann@example.org"), "\(shown)")
        // Folded (RFC 5322): no line of the header over 78 characters; unfolded it reads as Level 1 writes it.
        let headerLines = delivered.split(separator: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }.drop { !$0.hasPrefix("Autocrypt:") }
        let autocrypt = [headerLines.first ?? ""] + headerLines.dropFirst().prefix { $0.hasPrefix(" ") }
        #expect(autocrypt.count > 5 && autocrypt.allSatisfy { $0.count <= 78 }, "\(autocrypt)")
        #expect(autocrypt.joined().hasPrefix("Autocrypt: addr=ann@example.org; prefer-encrypt=mutual; keydata="), "\(autocrypt.prefix(2))")

        // A signed mail from Bob is verified with the learned key, and `read` says where that key came from.
        let signed = try people.gpg(["--armor", "--encrypt", "--sign", "--recipient", MailPeople.ann, "--local-user", MailPeople.bob],
                                    input: "Signed by me.\n")
        try people.dovecot.save(plain(from: "Bob <bob@example.org>", subject: "Signed", date: "Thu, 26 Nov 2026 10:00:00 +0000")
            .replacingOccurrences(of: "Hello Ann.", with: signed), user: MailPeople.ann)
        _ = try await people.parley(["mail", "sync"])
        let list = try await people.parley(["mail", "list"])
        let number = try MailPeople.listed("Signed", in: list.stdout).number
        let read = try await people.parley(people.withKeys(["mail", "read", number], passphraseFile: path("pass")))
        #expect(read.stdout.contains("signed by \(bob) (good signature)"), "\(read.stdout)")
        #expect(read.stdout.contains("The signing key \(bob) for bob@example.org was learned from an Autocrypt header, not checked by you."), "\(read.stdout)")
    }

    @Test func anOlderHeaderNeverReplacesANewerOne() async throws {
        let (bob, _) = try await makeKeys()
        // Carol's key in a header claiming to be Bob's, but on an older message: Level 1 keeps the newer one.
        let carolAsBob = try sqHeader("carol@example.org").replacingOccurrences(of: "addr=carol@", with: "addr=bob@")
        try people.dovecot.save(plain(from: "bob@example.org", subject: "New", date: "Wed, 25 Nov 2026 10:00:00 +0000",
                                      extra: try sqHeader(MailPeople.bob) + "\r\n"), user: MailPeople.ann)
        try people.dovecot.save(plain(from: "bob@example.org", subject: "Old", date: "Mon, 23 Nov 2026 10:00:00 +0000",
                                      extra: carolAsBob + "\r\n"), user: MailPeople.ann)
        // In a Junk folder nothing is learned at all.
        _ = try people.dovecot.doveadm(["mailbox", "create", "-u", MailPeople.ann, "Junk"])
        try people.dovecot.save(plain(from: "dave@example.org", subject: "Spam", date: "Wed, 25 Nov 2026 12:00:00 +0000",
                                      extra: try sqHeader("carol@example.org").replacingOccurrences(of: "addr=carol@", with: "addr=dave@") + "\r\n"),
                                user: MailPeople.ann, folder: "Junk")
        _ = try await people.addAccountAndSync()
        let keys = try await people.parley(["mail", "keys"])
        #expect(keys.stdout.contains("bob@example.org  autocrypt  \(bob)"), "\(keys.stdout)")
        #expect(!keys.stdout.contains("dave@"), "\(keys.stdout)")
        // Nothing of the peers table is readable on disk.
        let database = try Data(contentsOf: URL(fileURLWithPath: path("home/mail/ann@example.org/mail.sqlite")))
        #expect(database.range(of: Data("bob@example.org".utf8)) == nil)
    }

    @Test func gossipIsSentToEveryRecipientAndLearnedFromDecryptedMail() async throws {
        let (_, _) = try await makeKeys()
        // Ann knows Bob and Carol (imported); a message to both carries gossip for each, inside the encryption.
        for address in [MailPeople.bob, "carol@example.org"] {
            let imported = try await ParleyBinary.runDetached(["pgp", "keys", "import", path("\(address).pgp"), "--keyring", path("keyring")])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let sink = try await SMTPSink.start(directory: people.scratch.url, tls: "starttls",
                                            certificate: (people.dovecot.certificate, people.dovecot.certificateKey),
                                            login: (MailPeople.ann, MailPeople.imapPassword))
        defer { sink.stop() }
        _ = try await people.addAccountAndSync()
        _ = try await people.parley(["mail", "account", "smtp", "--smtp", "127.0.0.1:\(sink.port)"])
        let sent = try await ParleyBinary.runDetached(people.withKeys(["mail", "send", "--home", path("home"), "--to", MailPeople.bob,
                                                                      "--cc", "carol@example.org", "--subject", "Both"], passphraseFile: path("pass")),
                                                     stdin: "To you both.\n")
        #expect(sent.status == 0, "\(sent.stderr)")
        let delivered = try #require(sink.messages.first)
        #expect(!delivered.contains("Autocrypt-Gossip"), "gossip must not be outside the encryption")
        let inner = try people.gpg(["--decrypt"], input: Self.armored(delivered)).replacingOccurrences(of: "\r\n ", with: " ")
        #expect(inner.contains("Autocrypt-Gossip: addr=bob@example.org; keydata=") && inner.contains("Autocrypt-Gossip: addr=carol@example.org; keydata="), "\(inner.prefix(600))")

        // Bob writes to Ann and Carol with gossip (Sequoia's encoding of Carol's key) — and gossip about Mallory,
        // who is not a recipient, which must be ignored.
        let gossipCarol = try sqHeader("carol@example.org", mutual: false).replacingOccurrences(of: "Autocrypt:", with: "Autocrypt-Gossip:")
        let gossipMallory = try sqHeader("mallory@example.org", mutual: false).replacingOccurrences(of: "Autocrypt:", with: "Autocrypt-Gossip:")
        let entity = "\(gossipCarol)\r\n\(gossipMallory)\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMeet Carol.\r\n"
        let reEncrypted = try people.gpg(["--armor", "--encrypt", "--sign", "--recipient", MailPeople.ann, "--local-user", MailPeople.bob], input: entity)
        try people.dovecot.save("""
            From: Bob <bob@example.org>\r
            To: Ann <ann@example.org>, Carol <carol@example.org>\r
            Subject: Meet Carol\r
            Date: Thu, 26 Nov 2026 11:00:00 +0000\r
            MIME-Version: 1.0\r
            Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="b1"\r
            \r
            --b1\r
            Content-Type: application/pgp-encrypted\r
            \r
            Version: 1\r
            --b1\r
            Content-Type: application/octet-stream\r
            \r
            \(reEncrypted)\r
            --b1--\r

            """, user: MailPeople.ann)
        _ = try await people.parley(["mail", "sync"])
        let before = try await people.parley(["mail", "keys"])
        #expect(!before.stdout.contains("carol@"), "gossip is learned only when the message is decrypted: \(before.stdout)")
        let list = try await people.parley(["mail", "list"])
        let number = try MailPeople.listed("Meet Carol", in: list.stdout).number
        let read = try await people.parley(people.withKeys(["mail", "read", number], passphraseFile: path("pass")))
        #expect(read.stdout.contains("Meet Carol."), "\(read.stdout) \(read.stderr)")
        let after = try await people.parley(["mail", "keys"])
        #expect(after.stdout.contains("carol@example.org  gossip  \(try fingerprint("carol@example.org"))"), "\(after.stdout)")
        #expect(!after.stdout.contains("mallory@"), "\(after.stdout)")
    }

    /// The armored OpenPGP message inside a PGP/MIME mail, with LF line ends.
    static func armored(_ mail: String) throws -> String {
        let start = try #require(mail.range(of: "-----BEGIN PGP MESSAGE-----"))
        let end = try #require(mail.range(of: "-----END PGP MESSAGE-----"))
        return String(mail[start.lowerBound..<end.upperBound]).replacingOccurrences(of: "\r\n", with: "\n") + "\n"
    }
}
