import ArgumentParser
import Foundation
import ParleyClient
import ParleyMail
import ParleyPGP
#if canImport(Glibc)
import Glibc
#endif

extension Parley.Mail {
    /// `parley mail read N`: one stored message, decrypted and verified as `parley pgp read-mail` shows it.
    struct MailRead: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Show a stored message: decrypted, signatures checked, HTML as safe text, attachments listed.",
            discussion: """
                Keys come from --keyring DIR (or PARLEY_PGP_KEYRING), else the vault of this home's chat account, else \
                HOME/pgp — as for `parley pgp`. The key's pass phrase: --passphrase-file, PARLEY_PGP_PASSPHRASE or a prompt \
                (without any of them, the message is shown and each encrypted part says it needs the pass phrase). \
                Parts encrypted to a password open with --password or --password-file.
                """)
        @OptionGroup var options: MailOptions
        @OptionGroup var keys: MailKeyOptions
        @OptionGroup var password: MessagePasswordOptions
        @Option(help: "Save the attachments into this directory.") var out: String?
        @Argument(help: "The message's number, as `parley mail list` shows it.") var id: Int64

        func run() async throws {
            let store = try options.open()
            let id = id
            let mail = try MailOpening.open(id, store: store, keys: try options.pgpOptions(email: store.email, keys: keys),
                                            passwords: try password.passwords())
            let (lines, saved) = try Parley.PGP.ReadMail.render(mail, saveInto: out)
            Console.out(lines.joined(separator: "\n"))
            // Read here is read: the next `parley mail sync` tells the server.
            try MailFailure.run { () throws(MailboxError) in try store.markSeen(id) }
            if out != nil { Console.err("Saved \(saved) attachment(s).") }
        }
    }
}

/// A stored message opened as `read` and `save` show it: decrypted with the person's keys, signatures checked.
enum MailOpening {
    static func open(_ id: Int64, store: MailStore, keys pgp: PGPOptions, passwords: [[UInt8]] = []) throws -> ParleyPGP.Mail {
        let (_, raw) = try MailFailure.run { () throws(MailboxError) in try store.message(id) }
        guard !raw.isEmpty else { throw CommandFailure("message \(id) was too large to fetch; read it in another mail client") }
        let keyring = try pgp.openKeyring()
        let keys = try keyring.secretKeys()
        let passphrases = !keys.isEmpty && Parley.PGP.ReadMail.mayHoldEncrypted(raw) ? try passphrase(pgp) : []
        do {
            return try MailReader.read(eml: raw, keys: keys, passphrases: passphrases, passwords: passwords,
                                       verifyWith: try keyring.certificates())
        } catch {
            throw CommandFailure("cannot read message \(id): \(error)")
        }
    }

    /// The key's pass phrase when there is a way to get one; with none (no --passphrase-file, no
    /// PARLEY_PGP_PASSPHRASE, no terminal to ask at) the message is still shown, and each part that needs the key
    /// says how to give its pass phrase.
    static func passphrase(_ pgp: PGPOptions) throws -> [[UInt8]] {
        let fromEnvironment = !(ProcessInfo.processInfo.environment["PARLEY_PGP_PASSPHRASE"] ?? "").isEmpty
        guard pgp.passphraseFile != nil || fromEnvironment || isatty(STDIN_FILENO) == 1 else { return [] }
        return [try pgp.passphrase()]
    }
}
