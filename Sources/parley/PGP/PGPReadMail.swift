import ArgumentParser
import Foundation
import ParleyPGP

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

        /// What a person sees of a read message: headers, then each block labelled with what was decrypted and
        /// who signed it; attachments listed, and saved into `saveInto` when given. Returns the lines and how
        /// many attachments were saved.
        static func render(_ mail: Mail, saveInto out: String?) throws -> (lines: [String], saved: Int) {
            var lines: [String] = []
            if let from = mail.from { lines.append("From:    \(from)") }
            if let to = mail.to { lines.append("To:      \(to)") }
            if let subject = mail.subject { lines.append("Subject: \(subject)") }
            if let date = mail.date { lines.append("Date:    \(date)") }
            lines.append("")
            var saved = 0
            for block in mail.blocks {
                switch block {
                case .plainText(let text, let signature):
                    lines.append(Self.label(signature, encrypted: false))
                    lines.append(text)
                case .decryptedText(let text, let signature):
                    lines.append(Self.label(signature, encrypted: true))
                    lines.append(text)
                case .attachment(let attachment):
                    var line = "[attachment] \(attachment.safeName) (\(attachment.data.count) B, \(attachment.mediaType)"
                        + (attachment.wasEncrypted ? ", decrypted" : "") + ")"
                    if let out {
                        let directory = URL(fileURLWithPath: (out as NSString).expandingTildeInPath, isDirectory: true)
                        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                        let target = directory.appendingPathComponent(attachment.safeName)
                        guard !FileManager.default.fileExists(atPath: target.path) else {
                            throw CommandFailure("\(target.path) exists already; pick another --out directory")
                        }
                        try Data(attachment.data).write(to: target, options: .atomic)
                        line += " → saved to \(target.path)"
                        saved += 1
                    }
                    lines.append(line)
                case .unsupportedCharset(let charset):
                    lines.append("[a part in the unsupported charset \(charset) is not shown]")
                case .error(.needsPassword):
                    lines.append("[could not read a part: \(MailError.needsPassword) (pass --password or --password-file FILE)]")
                case .error(.needsPassphrase):
                    lines.append("[could not read a part: \(MailError.needsPassphrase) (pass --passphrase-file FILE or set PARLEY_PGP_PASSPHRASE)]")
                case .error(let error):
                    lines.append("[could not read a part: \(error)]")
                }
            }
            return (lines, saved)
        }

        /// The line above a text block: whether it was encrypted and what its signature says.
        static func label(_ signature: SignatureStatus, encrypted: Bool) -> String {
            let kind = encrypted ? "── decrypted" : "── plain text"
            switch signature {
            case .none: return "\(kind), not signed ──"
            case .valid(let fingerprint): return "\(kind), signed by \(fingerprint.map { String(format: "%02X", $0) }.joined()) (good signature) ──"
            case .bad(let why): return "\(kind), BAD SIGNATURE: \(why) ──"
            case .unknownSigner(let keyID): return "\(kind), signed by an unknown key \(keyID.map { $0.map { String(format: "%02X", $0) }.joined() } ?? "") ──"
            }
        }

        /// Asks for the pass phrase only when the message holds something encrypted (standard input is read later).
        static func needsPassphrase(_ input: String) -> Bool {
            guard input != "-", let data = FileManager.default.contents(atPath: input) else { return true }
            return mayHoldEncrypted(Array(data))
        }

        /// Whether a message may hold something encrypted: an armored message, PGP/MIME, or an attached .pgp/.gpg
        /// file (binary OpenPGP, so no armor line shows it).
        static func mayHoldEncrypted(_ eml: [UInt8]) -> Bool {
            let text = String(decoding: eml.prefix(64 << 20), as: UTF8.self)
            return text.contains("-----BEGIN PGP MESSAGE-----") || text.lowercased().contains("multipart/encrypted")
                || text.contains("application/pgp-encrypted") || text.contains(".pgp") || text.contains(".gpg")
        }
    }
}
