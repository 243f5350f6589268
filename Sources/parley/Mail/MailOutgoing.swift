import Foundation
import ParleyMail
import ParleyPGP

/// What `send` and `reply` share: the encryption rule, attachments, and what the person is told afterwards.
enum MailOutgoing {
    /// The message to submit: PGP/MIME encrypted to every recipient and to the sender, and signed, when every
    /// recipient has a key; else, only with `plain`, the same message unencrypted. Returns whether it is encrypted.
    static func message(_ composer: MailComposer, recipients: [String], settings: MailAccountSettings, plain: Bool,
                        keys pgp: PGPOptions) throws -> (message: [UInt8], encrypted: Bool) {
        var composer = composer
        let keys = try pgp.openKeyring()
        let found = MailRecipients.certificates(for: recipients, in: try keys.certificates())
        let missing = recipients.filter { found[$0.lowercased()] == nil }
        guard missing.isEmpty else {
            guard plain else {
                throw CommandFailure("not sent: \(missing.joined(separator: ", ")) \(missing.count == 1 ? "has" : "have") no OpenPGP key here; "
                    + "import it with `parley pgp keys import FILE`, or send unencrypted with --plain")
            }
            return (composer.composePlain(), false)
        }
        guard let own = MailRecipients.certificates(for: [settings.email], in: try keys.secretKeys())[settings.email] else {
            throw CommandFailure("you have no secret key for \(settings.email) to sign with: make one with `parley pgp keys generate`")
        }
        let now = PGPFailure.now
        let passphrase = try pgp.passphrase()
        composer.signer = try PGPFailure.run { try own.unlockedSigningKey(passphrases: [passphrase], now: now) }
        composer.sender = own.publicCertificate
        composer.recipients = recipients.compactMap { found[$0.lowercased()] }
        return (try PGPFailure.run { try composer.compose() }, true)
    }

    static func attachment(_ path: String) throws -> MailAttachment {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw CommandFailure("cannot read \(path)") }
        return MailAttachment(name: url.lastPathComponent, mediaType: "application/octet-stream", data: Array(data))
    }

    static func report(_ outcome: MailSubmission.Outcome, recipients: [String], encrypted: Bool) {
        Console.out("Sent to \(recipients.joined(separator: ", "))" + (encrypted ? ", encrypted and signed." : ", unencrypted (--plain)."))
        if let folder = outcome.sentFolder {
            Console.out("A copy is in \(folder).")
        } else if let problem = outcome.copyProblem {
            Console.err("The message was sent, but no copy could be kept in the Sent folder: \(problem)")
        }
    }

    /// The addresses in a header value: each `Name <addr>` or bare `addr`, comma separated.
    static func addresses(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").compactMap { part -> String? in
            let text = part.trimmingCharacters(in: .whitespacesAndNewlines)
            let address = text.firstIndex(of: "<").flatMap { start in
                text[text.index(after: start)...].firstIndex(of: ">").map { String(text[text.index(after: start)..<$0]) }
            } ?? text
            return MailRecipients.isAddress(address) ? address.lowercased() : nil
        }
    }
}
