import ArgumentParser
import Foundation
import ParleyMail
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail account add|list`.
    struct MailAccount: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account", abstract: "Add a mail account, set its submission server, or list them.", subcommands: [Add.self, SMTP.self, List.self])
    }
}

extension Parley.Mail.MailAccount {
    /// `parley mail account add`: checks the login, then stores the settings sealed in a new store.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an IMAP account (the login is tried first; nothing is stored if it fails).",
            discussion: """
                The password comes from --password-file, PARLEY_MAIL_PASSWORD or a prompt — never the command line — \
                and is kept sealed in the account's store. With --pin the store is locked by a PIN \
                (PARLEY_NEW_PIN or a prompt), asked again by every mail command (PARLEY_PIN).
                """)
        @OptionGroup var options: MailOptions
        @Option(help: "The account's address.") var email: String
        @Option(help: ArgumentHelp("The IMAP server, HOST[:PORT] (993 for tls, 143 for starttls).", valueName: "host:port")) var imap: String
        @Option(help: "tls (implicit, port 993) or starttls (port 143).") var security = "tls"
        @OptionGroup var submission: SubmissionOptions
        @Option(help: "The login name, if it is not the address.") var username: String?
        @Option(help: "A file whose first line is the password.") var passwordFile: String?
        @Option(help: "Trust the certificates in this PEM file instead of the system's.") var ca: String?
        @Option(help: "Trust exactly the server key with this base64 SHA-256 (of its SubjectPublicKeyInfo).") var pinKey: String?
        @Flag(help: "Lock this account's store with a PIN.") var pin = false

        func run() async throws {
            guard let security = MailServer.Security(rawValue: security.lowercased()) else {
                throw CommandFailure("--security is tls or starttls, not \(self.security)")
            }
            var server = try MailFailure.run { () throws(MailboxError) in try MailServer(imap: imap, security: security) }
            server.trustedCertificatesFile = ca.map { ($0 as NSString).expandingTildeInPath }
            server.pinnedKeySHA256 = pinKey
            let smtp = try submission.server(ca: server.trustedCertificatesFile, pinKey: pinKey)
            let password = try MailSecrets.password(file: passwordFile, for: email)
            let settings = MailAccountSettings(email: email.lowercased(), imap: server, smtp: smtp, username: username ?? email, password: password)
            let folders = try await MailFailure.onThread({ () throws(MailboxError) in try MailCheck.login(settings) })
            let newPIN = pin ? try VaultAccess.newPIN(prompt: "New PIN for the mail store of \(email): ") : nil
            let home = options.homeURL
            _ = try MailFailure.run { () throws(MailboxError) in try MailStore.create(home: home, settings: settings, pin: newPIN) }
            Console.out("Added \(settings.email) (\(server), \(folders) folder(s)). Fetch its mail with `parley mail sync`.")
        }
    }

    /// `parley mail account smtp`: gives an account its submission server (tried first).
    struct SMTP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "smtp", abstract: "Set the account's submission server for `parley mail send` (the login is tried first).")
        @OptionGroup var options: MailOptions
        @OptionGroup var submission: SubmissionOptions

        func run() async throws {
            guard submission.smtp != nil else { throw CommandFailure("give the server with --smtp HOST[:PORT]") }
            let store = try options.open()
            var settings = try MailFailure.run { () throws(MailboxError) in try store.settings() }
            settings.smtp = try submission.server(ca: settings.imap.trustedCertificatesFile, pinKey: nil)
            let checked = settings
            _ = try await MailFailure.onThread({ () throws(MailboxError) in try MailCheck.login(checked) })
            try MailFailure.run { () throws(MailboxError) in try store.update(checked) }
            Console.out("\(settings.email) sends through \(settings.smtp.map { "\($0)" } ?? "").")
        }
    }

    /// `parley mail account list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the mail accounts of this home.")
        @Option(help: ArgumentHelp("Parley's data directory (default ~/.parley, or PARLEY_HOME).", valueName: "dir"))
        var home: String?

        func run() throws {
            let accounts = MailStore.accounts(home: ParleyHome.url(home))
            guard !accounts.isEmpty else { return Console.out("No mail account yet: add one with `parley mail account add`.") }
            for account in accounts { Console.out(account) }
        }
    }
}

/// The IMAP password: a file, PARLEY_MAIL_PASSWORD, or a hidden prompt.
enum MailSecrets {
    static func password(file: String?, for email: String) throws -> String {
        if let file {
            guard let text = FileManager.default.contents(atPath: (file as NSString).expandingTildeInPath),
                  let line = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first,
                  !line.isEmpty
            else { throw CommandFailure("cannot read a password from \(file) (its first line is the password)") }
            return String(line)
        }
        if let value = ProcessInfo.processInfo.environment["PARLEY_MAIL_PASSWORD"], !value.isEmpty { return value }
        guard isatty(STDIN_FILENO) == 1 else {
            throw CommandFailure("no mail password given: pass --password-file FILE, set PARLEY_MAIL_PASSWORD, or run in a terminal")
        }
        return try SecretInput.readHidden(prompt: "IMAP password for \(email): ")
    }
}

/// `--smtp HOST[:PORT]` and `--smtp-security`: the submission server.
struct SubmissionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The submission (SMTP) server, HOST[:PORT] (587 with starttls, 465 with tls).", valueName: "host:port"))
    var smtp: String?
    @Option(help: "starttls (port 587, the default) or tls (port 465).") var smtpSecurity: String?
    @Option(help: "Trust exactly the submission server key with this base64 SHA-256 (else the IMAP server's trust settings).")
    var smtpPinKey: String?

    func server(ca: String?, pinKey: String?) throws -> MailServer? {
        guard let smtp else { return nil }
        let explicit = try smtpSecurity.map { text -> MailServer.Security in
            guard let value = MailServer.Security(rawValue: text.lowercased()) else { throw CommandFailure("--smtp-security is tls or starttls, not \(text)") }
            return value
        }
        var server = try MailFailure.run { () throws(MailboxError) in try MailServer(submission: smtp, security: explicit) }
        server.trustedCertificatesFile = ca
        server.pinnedKeySHA256 = smtpPinKey ?? pinKey
        return server
    }
}
