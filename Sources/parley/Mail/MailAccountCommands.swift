import ArgumentParser
import Foundation
import ParleyMail

extension Parley.Mail {
    /// `parley mail account add|list`.
    struct MailAccount: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account", abstract: "Add a mail account, or list them.", subcommands: [Add.self, List.self])
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
        @Option(help: "The login name, if it is not the address.") var username: String?
        @Option(help: "A file whose first line is the password.") var passwordFile: String?
        @Option(help: "Trust the certificates in this PEM file instead of the system's.") var ca: String?
        @Option(help: "Trust exactly the server key with this base64 SHA-256 (of its SubjectPublicKeyInfo).") var pinKey: String?
        @Flag(help: "Lock this account's store with a PIN.") var pin = false

        func run() async throws {
            guard let security = MailServer.Security(rawValue: security.lowercased()) else {
                throw CommandFailure("--security is tls or starttls, not \(self.security)")
            }
            let defaultPort = security == .tls ? 993 : 143
            var server = try MailFailure.run { () throws(MailboxError) in
                try MailServer(parsing: imap, security: security, defaultPort: defaultPort)
            }
            server.trustedCertificatesFile = ca.map { ($0 as NSString).expandingTildeInPath }
            server.pinnedKeySHA256 = pinKey
            let password = try MailSecrets.password(file: passwordFile, for: email)
            let settings = MailAccountSettings(email: email.lowercased(), imap: server, username: username ?? email, password: password)
            let folders = try await MailFailure.onThread({ () throws(MailboxError) in try MailCheck.login(settings) })
            let newPIN = pin ? try VaultAccess.newPIN(prompt: "New PIN for the mail store of \(email): ") : nil
            let home = options.homeURL
            _ = try MailFailure.run { () throws(MailboxError) in try MailStore.create(home: home, settings: settings, pin: newPIN) }
            Console.out("Added \(settings.email) (\(server), \(folders) folder(s)). Fetch its mail with `parley mail sync`.")
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
