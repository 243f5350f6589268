import ArgumentParser
import Foundation
import ParleyPGP
import ParleyTerminal

extension Parley.PGP {
    /// `parley pgp read-mail FILE.eml`: what FlowCrypt's reader shows — text, decrypted text, signature
    /// status and attachments — from one message file.
    struct ReadMail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read-mail",
            abstract: "Read an e-mail (.eml): PGP/MIME, signed, inline PGP and encrypted attachments, as plain text.",
            discussion: """
                Decrypts with your keyring's secret keys (and, with --password, parts encrypted to a password) and \
                checks signatures against its certificates. HTML is shown as safe text (nothing is fetched). \
                Attachments are listed; with --out DIR they are saved there (decrypted), under names stripped of any path.
                """)
        @OptionGroup var options: PGPOptions
        @OptionGroup var password: MessagePasswordOptions
        @Option(help: "Save the attachments into this directory.") var out: String?
        @Argument(help: "The message file (.eml, or '-' for standard input).") var input: String

        func run() async throws {
            let keyring = try options.openKeyring()
            let keys = try keyring.secretKeys()
            let usesPassword = password.given
            var passphrases: [[UInt8]] = []
            if !keys.isEmpty, Self.needsPassphrase(input) {
                // With a message password at hand, the key pass phrase is optional: the mail may need only the password.
                passphrases = usesPassword ? [try? options.passphrase()].compactMap { $0 } : [try options.passphrase()]
            }
            let passwords = try password.passwords()
            let eml = try PGPFailure.run { try PGPIO.read(input) }
            let mail: Mail
            do {
                mail = try MailReader.read(eml: eml, keys: keys, passphrases: passphrases, passwords: passwords,
                                           verifyWith: try keyring.certificates())
            } catch {
                throw CommandFailure("cannot read \(input): \(error)")
            }
            let (lines, saved) = try Self.render(mail, saveInto: out)
            Console.out(lines.joined(separator: "\n"))
            if out != nil { PGPIO.eprint("Saved \(saved) attachment(s).") }
        }

        /// What a person sees of a read message (ParleyPGP's `MailTranscript`), the attachments saved into
        /// `saveInto` when given. Returns the lines and how many attachments were saved.
        static func render(_ mail: Mail, saveInto out: String?) throws -> (lines: [String], saved: Int) {
            guard let out else { return MailTranscript.lines(mail) }
            return try MailTranscript.lines(mail, savingInto: URL(fileURLWithPath: (out as NSString).expandingTildeInPath, isDirectory: true))
        }

        /// Asks for the pass phrase only when the message holds something encrypted (standard input is read later).
        static func needsPassphrase(_ input: String) -> Bool {
            guard input != "-", let data = FileManager.default.contents(atPath: input) else { return true }
            return MailTranscript.mayHoldEncrypted(Array(data))
        }
    }
}
