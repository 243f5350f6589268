import Foundation
import ParleyTestSupport
import Testing

/// `parley mail` as a person uses it, through the real binary, against a real Dovecot on its defaults:
/// add the account, sync, list, read mail that GnuPG wrote — and a sync killed with SIGKILL resumes.
@Suite("parley mail", .serialized, .offThePool)
struct MailCommandTests {
    static let ann = "ann@example.org"
    static let imapPassword = "ann's imap password"
    static let bob = "bob@example.org"
    static let bobPassword = "bob's imap password"
    let scratch: GnuPGScratch
    let dovecot: Dovecot
    let passphrase = "ann's key pass phrase"

    init() throws {
        scratch = try GnuPGScratch("parley-mail-cli")
        dovecot = try Dovecot(users: [Self.ann: Self.imapPassword, Self.bob: Self.bobPassword])
        try Data((passphrase + "\n").utf8).write(to: URL(fileURLWithPath: path("pass")))
    }

    func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }

    func parley(_ arguments: [String], environment: [String: String] = [:]) async throws -> ParleyBinary.Result {
        try await ParleyBinary.runDetached(arguments + ["--home", path("home")], environment: environment)
    }

    func gpg(_ arguments: [String], input: String = "") throws -> String {
        try FileManager.default.createDirectory(atPath: path("gnupg"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let result = try ToolRun.run("/bin/sh", ["-c", "printf '%s' \"$INPUT\" | gpg --homedir \"$GH\" --batch --yes --no-tty --pinentry-mode loopback --passphrase bob --trust-model always \"$@\"", "sh"] + arguments,
                                     environment: ["INPUT": input, "GH": path("gnupg"), "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "gpg \(arguments): \(result.output)")
        return result.output
    }

    func addAccount(smtp: Int? = nil) async throws {
        let added = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapsPort)", "--ca", dovecot.certificate]
                                     + (smtp.map { ["--smtp", "127.0.0.1:\($0)"] } ?? []),
                                     environment: ["PARLEY_MAIL_PASSWORD": Self.imapPassword])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("Added \(Self.ann)"), "\(added.stdout)")
    }

    /// Ann's key in a Parley keyring; Bob's in GnuPG; each knows the other's certificate.
    func exchangeKeys() async throws {
        let keyring = path("keyring")
        let generated = try await ParleyBinary.runDetached(["pgp", "keys", "generate", "--user-id", "Ann <\(Self.ann)>", "--passphrase-file", path("pass"), "--keyring", keyring])
        #expect(generated.status == 0, "\(generated.stderr)")
        let annCert = try await ParleyBinary.runDetached(["pgp", "keys", "export", Self.ann, "--keyring", keyring])
        _ = try gpg(["--quick-gen-key", "Bob <bob@example.org>", "ed25519", "sign", "never"])
        let bobFingerprint = try gpg(["--list-keys", "--with-colons", "bob@example.org"]).split(separator: "\n")
            .first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) } ?? ""
        _ = try gpg(["--quick-add-key", bobFingerprint, "cv25519", "encr", "never"])
        _ = try gpg(["--import"], input: annCert.stdout)
        try gpg(["--armor", "--export", "bob@example.org"]).write(toFile: path("bob.asc"), atomically: true, encoding: .utf8)
        let imported = try await ParleyBinary.runDetached(["pgp", "keys", "import", path("bob.asc"), "--keyring", keyring])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test func addSyncListAndReadMailThatGnuPGWrote() async throws {
        try await exchangeKeys()
        let armored = try gpg(["--armor", "--encrypt", "--sign", "--recipient", Self.ann, "--local-user", "bob@example.org"],
                              input: "Meet at the north gate at nine.\n")
        try dovecot.save("""
            From: Bob <bob@example.org>
            To: Ann <\(Self.ann)>
            Subject: Plan for Friday
            Date: Thu, 26 Nov 2026 09:14:00 +0000
            MIME-Version: 1.0
            Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="b1"

            --b1
            Content-Type: application/pgp-encrypted

            Version: 1
            --b1
            Content-Type: application/octet-stream; name="encrypted.asc"

            \(armored)
            --b1--

            """, user: Self.ann)
        try dovecot.save("""
            From: =?ISO-8859-1?Q?Ren=E9?= <rene@example.org>
            To: \(Self.ann)
            Subject: \u{1B}]0;owned\u{07}Caf=?ISO-8859-1?Q?=E9?= \u{1B}[31mnews
            Date: Thu, 26 Nov 2026 08:00:00 +0000
            MIME-Version: 1.0
            Content-Type: text/plain; charset=ISO-8859-1
            Content-Transfer-Encoding: quoted-printable

            Cr=E8me br=FBl=E9e for everyone.
            """, user: Self.ann)

        try await addAccount()
        let synced = try await parley(["mail", "sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("Synced 1 folder(s): 2 new"), "\(synced.stdout)")

        let listed = try await parley(["mail", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(listed.stdout)")
        let plan = try #require(lines.first { $0.contains("Plan for Friday") })
        #expect(plan.contains("*") && plan.contains("Bob <bob@example.org>") && plan.contains("[encrypted]"), "\(plan)")
        let news = try #require(lines.first { $0.contains("news") })
        #expect(news.contains("René") && news.contains("Café"), "\(news)")
        #expect(!listed.stdout.contains("\u{1B}") && !listed.stdout.contains("\u{07}"), "remote text reached the terminal: \(listed.stdout)")

        let number = try #require(plan.split(separator: " ").first.map(String.init))
        let read = try await parley(["mail", "read", number, "--keyring", path("keyring"), "--passphrase-file", path("pass")])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("Meet at the north gate at nine."), "\(read.stdout)")
        #expect(read.stdout.contains("── decrypted, signed by") && read.stdout.contains("(good signature)"), "\(read.stdout)")

        let newsNumber = try #require(news.split(separator: " ").first.map(String.init))
        let readNews = try await parley(["mail", "read", newsNumber, "--keyring", path("keyring")])
        #expect(readNews.stdout.contains("Crème brûlée for everyone."), "\(readNews.stdout)")
        #expect(!readNews.stdout.contains("\u{1B}"), "\(readNews.stdout)")

        // Read here is read there: the next sync tells the server.
        let again = try await parley(["mail", "sync"])
        #expect(again.stdout.contains("0 new") && again.stdout.contains("2 marked read on the server"), "\(again.stdout)")
        let unread = try await parley(["mail", "list", "--unread"])
        #expect(unread.stdout.contains("No unread mail stored."), "\(unread.stdout)")
        let missing = try await parley(["mail", "read", "999", "--keyring", path("keyring")])
        #expect(missing.status != 0 && missing.stderr.contains("there is no message 999"), "\(missing.stderr)")
    }

    @Test func wrongPasswordOrUntrustedServerStoresNothing() async throws {
        let wrong = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapsPort)", "--ca", dovecot.certificate],
                                     environment: ["PARLEY_MAIL_PASSWORD": "not it"])
        #expect(wrong.status != 0 && wrong.stderr.contains("did not accept the username and password"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not it"))
        let untrusted = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapsPort)"],
                                         environment: ["PARLEY_MAIL_PASSWORD": Self.imapPassword])
        #expect(untrusted.status != 0 && untrusted.stderr.contains("certificate is not trusted"), "\(untrusted.stderr)")
        let accounts = try await parley(["mail", "account", "list"])
        #expect(accounts.stdout.contains("No mail account yet"), "\(accounts.stdout)")
        let starttls = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapPort)", "--security", "starttls", "--ca", dovecot.certificate],
                                        environment: ["PARLEY_MAIL_PASSWORD": Self.imapPassword])
        #expect(starttls.status == 0, "\(starttls.stderr)")
    }

    @Test func aSyncKilledMidwayResumesWithoutLosingOrRepeatingMail() async throws {
        for index in 1...260 {
            try dovecot.save("From: list@example.org\nTo: \(Self.ann)\nSubject: digest \(index)\n\n\(String(repeating: "line of text \(index)\n", count: 400))", user: Self.ann)
        }
        try await addAccount()
        // Killed the moment the first batch's progress line is printed (by the reader thread, not after a poll),
        // so two batches are still to come.
        let sync = try LiveProcess(["mail", "sync", "--home", path("home")], killWhenPrinted: " of 260")
        _ = try await sync.waitFor("INBOX: [0-9]+ of 260")
        sync.kill()
        _ = await sync.exitStatus()

        let resumed = try await parley(["mail", "sync"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let fetched = Self.newCount(resumed.stdout)
        #expect((1..<260).contains(fetched), "the resumed sync fetched \(fetched): \(resumed.stdout)")
        let listed = try await parley(["mail", "list", "--limit", "1000"])
        let subjects = Self.digestNumbers(listed.stdout)
        #expect(subjects.count == 260, "\(subjects.count) listed")
        #expect(Set(subjects).count == 260, "a message was stored twice")
    }

    /// N from "Synced 1 folder(s): N new, …".
    static func newCount(_ text: String) -> Int {
        guard let range = text.range(of: "folder(s): ") else { return -1 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    /// The numbers of the "digest N" subjects listed.
    static func digestNumbers(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "digest ") else { return nil }
            return String(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test func sendEncryptsToKnownKeysKeepsACopyAndRefusesWhatCannotBeEncrypted() async throws {
        try await exchangeKeys()
        let sink = try await SMTPSink.start(directory: scratch.url, tls: "starttls", certificate: (dovecot.certificate, dovecot.certificateKey),
                                            login: (Self.ann, Self.imapPassword))
        defer { sink.stop() }
        try await addAccount(smtp: sink.port)
        try "Quarterly figures attached.\n".write(toFile: path("figures.txt"), atomically: true, encoding: .utf8)

        let sent = try await ParleyBinary.runDetached(
            ["mail", "send", "--home", path("home"), "--to", Self.bob, "--subject", "Figures", "--attach", path("figures.txt"),
             "--keyring", path("keyring"), "--passphrase-file", path("pass")],
            stdin: "Here they are, Bob.\n")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent to bob@example.org, encrypted and signed.") && sent.stdout.contains("A copy is in Sent."), "\(sent.stdout)")
        let delivered = try #require(sink.messages.first)
        #expect(delivered.contains("multipart/encrypted") && !delivered.contains("Here they are") && !delivered.contains("Quarterly figures"))

        // Bob's side, without Parley: Dovecot delivers it, Python's imaplib fetches it, gpg decrypts and verifies.
        try dovecot.save(delivered, user: Self.bob)
        let fetched = try ToolRun.run("/usr/bin/python3", ["-c", """
            import imaplib, ssl, sys
            m = imaplib.IMAP4_SSL('127.0.0.1', int(sys.argv[1]), ssl_context=ssl.create_default_context(cafile=sys.argv[2]))
            m.login(sys.argv[3], sys.argv[4]); m.select('INBOX')
            typ, data = m.fetch('1', '(BODY.PEEK[])'); sys.stdout.write(data[0][1].decode())
            """, "\(dovecot.imapsPort)", dovecot.certificate, Self.bob, Self.bobPassword])
        #expect(fetched.status == 0, "\(fetched.output)")
        let armored = try #require(fetched.output.range(of: "-----BEGIN PGP MESSAGE-----").map { start in
            String(fetched.output[start.lowerBound...]).components(separatedBy: "-----END PGP MESSAGE-----")[0] + "-----END PGP MESSAGE-----\n"
        })
        let opened = try gpg(["--status-fd", "1", "--decrypt"], input: armored.replacingOccurrences(of: "\r\n", with: "\n"))
        // The decrypted entity is multipart/mixed with base64 parts, as PGP/MIME mail is.
        let body = Data("Here they are, Bob.\n".utf8).base64EncodedString()
        #expect(opened.contains("[GNUPG:] GOODSIG") && opened.contains(body) && opened.contains("figures.txt"), "\(opened)")

        // Ann's copy in Sent is readable by Ann (encrypted to her own key too).
        let synced = try await parley(["mail", "sync", "--folder", "Sent"])
        #expect(synced.stdout.contains("1 new"), "\(synced.stdout) \(synced.stderr)")
        let listed = try await parley(["mail", "list", "--folder", "Sent"])
        let number = try #require(listed.stdout.split(separator: "\n").first { $0.contains("Figures") }?.split(separator: " ").first.map(String.init))
        let copy = try await parley(["mail", "read", number, "--keyring", path("keyring"), "--passphrase-file", path("pass")])
        #expect(copy.stdout.contains("Here they are, Bob.") && copy.stdout.contains("[attachment] figures.txt"), "\(copy.stdout)")
        let saved = try await parley(["mail", "save", number, "--attachment", "1", "-o", path("saved.txt"), "--keyring", path("keyring"), "--passphrase-file", path("pass")])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(try String(contentsOfFile: path("saved.txt"), encoding: .utf8) == "Quarterly figures attached.\n")
        let noSecond = try await parley(["mail", "save", number, "--attachment", "2", "-o", path("second.txt"), "--keyring", path("keyring"), "--passphrase-file", path("pass")])
        #expect(noSecond.status != 0 && noSecond.stderr.contains("has 1 attachment(s)"), "\(noSecond.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("second.txt")))

        // Carol has no key: nothing is sent unless Ann says --plain.
        let refused = try await ParleyBinary.runDetached(
            ["mail", "send", "--home", path("home"), "--to", Self.bob, "--to", "carol@example.org", "--subject", "Lunch",
             "--keyring", path("keyring"), "--passphrase-file", path("pass")], stdin: "Soup?\n")
        #expect(refused.status != 0 && refused.stderr.contains("carol@example.org has no OpenPGP key") && refused.stderr.contains("--plain"), "\(refused.stderr)")
        #expect(sink.messages.count == 1)
        let plain = try await ParleyBinary.runDetached(
            ["mail", "send", "--home", path("home"), "--to", "carol@example.org", "--subject", "Lunch", "--plain", "--keyring", path("keyring")],
            stdin: "Soup?\n")
        #expect(plain.status == 0 && plain.stdout.contains("unencrypted (--plain)"), "\(plain.stderr)")
        #expect(sink.messages.count == 2)
    }

    @Test func replyAnswersInTheThreadAndMarksTheOriginalAnswered() async throws {
        try await exchangeKeys()
        let sink = try await SMTPSink.start(directory: scratch.url, tls: "starttls", certificate: (dovecot.certificate, dovecot.certificateKey),
                                            login: (Self.ann, Self.imapPassword))
        defer { sink.stop() }
        try dovecot.save("""
            From: Bob <bob@example.org>
            To: Ann <\(Self.ann)>, Carol <carol@example.org>
            Subject: Plan for Friday
            Message-ID: <plan-1@example.org>
            References: <earlier-0@example.org>
            Date: Thu, 26 Nov 2026 09:14:00 +0000

            Shall we meet at nine?
            """, user: Self.ann)
        try await addAccount(smtp: sink.port)
        _ = try await parley(["mail", "sync"])
        let listed = try await parley(["mail", "list"])
        let number = try #require(listed.stdout.split(separator: "\n").first?.split(separator: " ").first.map(String.init))

        let replied = try await ParleyBinary.runDetached(
            ["mail", "reply", number, "--home", path("home"), "--keyring", path("keyring"), "--passphrase-file", path("pass")],
            stdin: "Nine works.\n")
        #expect(replied.status == 0 && replied.stdout.contains("Sent to bob@example.org, encrypted and signed."), "\(replied.stdout) \(replied.stderr)")
        let delivered = try #require(sink.messages.first)
        #expect(delivered.contains("Subject: Re: Plan for Friday"), "\(delivered.prefix(600))")
        #expect(delivered.contains("In-Reply-To: <plan-1@example.org>"))
        #expect(delivered.contains("References: <earlier-0@example.org> <plan-1@example.org>"))
        #expect(!delivered.contains("carol@example.org") && !delivered.contains("Nine works."))
        // Bob reads it with GnuPG: the answer, then the original quoted under who wrote it.
        let inner = try gpg(["--decrypt"], input: try MailAutocryptTests.armored(delivered))
        let encodedText = try #require(inner.components(separatedBy: "Content-Transfer-Encoding: base64").dropFirst().first?
            .components(separatedBy: "--=_").first?.filter { !$0.isWhitespace })
        let text = String(decoding: try #require(Data(base64Encoded: encodedText)), as: UTF8.self)
        #expect(text.hasPrefix("Nine works.\n\nOn Thu, 26 Nov 2026 09:14:00 +0000, Bob <bob@example.org> wrote:\n> Shall we meet at nine?"), "\(text)")
        let flags = try dovecot.doveadm(["fetch", "-u", Self.ann, "flags", "mailbox", "INBOX", "all"])
        #expect(flags.contains("\\Answered"), "\(flags)")

        // --all would include Carol, who has no key: nothing goes out without --plain.
        let all = try await ParleyBinary.runDetached(
            ["mail", "reply", number, "--all", "--home", path("home"), "--keyring", path("keyring"), "--passphrase-file", path("pass")],
            stdin: "Everyone?\n")
        #expect(all.status != 0 && all.stderr.contains("carol@example.org has no OpenPGP key"), "\(all.stderr)")
        #expect(sink.messages.count == 1)
    }

    @Test func watchPrintsNewMailAsItArrives() async throws {
        try dovecot.save(MailCommandTests.plain("already here"), user: Self.ann)
        try await addAccount()
        _ = try await parley(["mail", "sync"])
        let watch = try LiveProcess(["mail", "watch", "--home", path("home")])
        defer { watch.kill() }
        _ = try await watch.waitFor("Watching INBOX of ann@example.org", seconds: 30)
        try await Task.sleep(for: .seconds(1))
        try dovecot.save(MailCommandTests.plain("just arrived \u{1B}[2J"), user: Self.ann)
        let output = try await watch.waitFor("just arrived", seconds: 30)
        #expect(!output.contains("already here"), "mail synced before was printed again: \(output)")
        #expect(!output.contains("\u{1B}"), "\(output)")
        try dovecot.save(MailCommandTests.plain("and another"), user: Self.ann)
        _ = try await watch.waitFor("and another", seconds: 30)
        // What watch printed is in the store: `list` shows it offline.
        let listed = try await parley(["mail", "list"])
        #expect(listed.stdout.contains("just arrived") && listed.stdout.contains("and another"), "\(listed.stdout)")
    }

    static func plain(_ subject: String) -> String {
        "From: Carol <carol@example.org>\nTo: \(ann)\nSubject: \(subject)\nDate: Thu, 26 Nov 2026 10:00:00 +0000\n\nHello.\n"
    }

    @Test func aStoreLockedWithAPINOpensOnlyWithIt() async throws {
        try dovecot.save(MailCommandTests.plain("behind a PIN"), user: Self.ann)
        let added = try await parley(["mail", "account", "add", "--email", Self.ann, "--imap", "127.0.0.1:\(dovecot.imapsPort)", "--ca", dovecot.certificate, "--pin"],
                                     environment: ["PARLEY_MAIL_PASSWORD": Self.imapPassword, "PARLEY_NEW_PIN": "4826"])
        #expect(added.status == 0, "\(added.stderr)")
        let synced = try await parley(["mail", "sync"], environment: ["PARLEY_PIN": "4826"])
        #expect(synced.status == 0 && synced.stdout.contains("1 new"), "\(synced.stderr)")
        let wrong = try await parley(["mail", "list"], environment: ["PARLEY_PIN": "1111"])
        #expect(wrong.status != 0 && !wrong.stdout.contains("behind a PIN"), "\(wrong.stdout)")
        let right = try await parley(["mail", "list"], environment: ["PARLEY_PIN": "4826"])
        #expect(right.stdout.contains("behind a PIN"), "\(right.stdout) \(right.stderr)")
    }
}
