import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal
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
            let opened = try MailOpening.open(id, store: store, pgp: try options.pgpOptions(email: store.email, keys: keys),
                                              passwords: try password.passwords())
            let (lines, saved) = try Parley.PGP.ReadMail.render(opened.mail, saveInto: out)
            Console.out(lines.joined(separator: "\n"))
            for note in opened.notes { Console.out(note) }
            // Read here is read: the next `parley mail sync` tells the server.
            try MailFailure.run { () throws(MailboxError) in try store.markSeen(id) }
            if out != nil { Console.err("Saved \(saved) attachment(s).") }
        }
    }
}
