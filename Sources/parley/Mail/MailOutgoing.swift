import Foundation
import ParleyMail
import ParleyPGP

/// What `send` and `reply` share: the encryption rule, Autocrypt, attachments, and what the person is told.
enum MailOutgoing {
    /// A message ready to submit.
    struct Prepared {
        let message: [UInt8]
        let encrypted: Bool
        /// Recipients encrypted to with a key that is not one of the person's own.
        let learned: [RecipientKeys.Choice]
    }

    /// The message to submit: PGP/MIME encrypted to every recipient and to the sender, and signed, when every
    /// recipient has a key (docs/MAIL.md §5, §6); else, only with `plain`, the same message unencrypted. Either
    /// carries our Autocrypt header when the person has a secret key for the account's address.
    static func message(_ composer: MailComposer, recipients: [String], store: MailStore, settings: MailAccountSettings,
                        plain: Bool, lookup: Bool, keyring keys: any PGPKeyStore, passphrase: PassphraseOnce) async throws -> Prepared {
        var composer = composer
        let now = PGPFailure.now
        let own = try keys.secretKeys().first { $0.names(settings.email) }
        if let own {
            let minimal = own.publicCertificate.minimal(for: settings.email, at: now)
            composer.autocrypt = AutocryptHeader(address: settings.email, preferMutual: true, keydata: minimal.packets.encoded).value
        }
        let discovery = RecipientKeys(store: store, lookup: lookup ? try MailFailure.run { () throws(MailboxError) in try WKDLookup() } : nil)
        let found: RecipientKeys.Result
        do {
            found = try await discovery.resolve(recipients, own: try keys.certificates()) { address in
                Console.err("Asking the Web Key Directory for \(address)'s key…")
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        guard found.missing.isEmpty else {
            guard plain else {
                let names = found.missing.map(\.address)
                let reasons = found.missing.compactMap(\.why)
                throw CommandFailure("not sent: \(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no OpenPGP key here"
                    + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
                    + "; import it with `parley pgp keys import FILE`, or send unencrypted with --plain")
            }
            return Prepared(message: composer.composePlain(), encrypted: false, learned: [])
        }
        guard let own else {
            throw CommandFailure("you have no secret key for \(settings.email) to sign with: make one with `parley pgp keys generate`")
        }
        let secret = try passphrase.get()
        composer.signer = try PGPFailure.run { try own.unlockedSigningKey(passphrases: [secret], now: now) }
        composer.sender = own.publicCertificate
        composer.recipients = found.chosen.map(\.certificate)
        // With two or more recipients, each learns the others' keys (Autocrypt gossip), inside the encryption.
        if found.chosen.count >= 2 {
            composer.gossip = found.chosen.map { choice in
                AutocryptHeader(address: choice.address, preferMutual: false,
                                keydata: choice.certificate.minimal(for: choice.address, at: now).packets.encoded).gossipValue
            }
        }
        return Prepared(message: try PGPFailure.run { try composer.compose() }, encrypted: true,
                        learned: found.chosen.filter { $0.origin != nil })
    }

    /// `text` followed by the original's text, quoted (`> `), under an attribution line; attachments are not quoted.
    static func quoting(_ text: String, original mail: ParleyPGP.Mail) -> String {
        var quoted: [String] = []
        for block in mail.blocks {
            switch block {
            case .plainText(let body, _), .decryptedText(let body, _): quoted.append(body)
            default: continue
            }
        }
        let body = quoted.joined(separator: "\n").prefix(64 * 1024)
        guard !body.isEmpty else { return text }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? ">" : "> " + $0 }
        let who = [mail.date.map { "On \($0)" }, mail.from].compactMap { $0 }.joined(separator: ", ")
        return (text.hasSuffix("\n") ? text : text + "\n") + "\n\(who.isEmpty ? "You" : who) wrote:\n" + lines.joined(separator: "\n") + "\n"
    }

    static func attachment(_ path: String) throws -> MailAttachment {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw CommandFailure("cannot read \(path)") }
        return MailAttachment(name: url.lastPathComponent, mediaType: "application/octet-stream", data: Array(data))
    }

    static func report(_ outcome: MailSubmission.Outcome, recipients: [String], prepared: Prepared) {
        Console.out("Sent to \(recipients.joined(separator: ", "))" + (prepared.encrypted ? ", encrypted and signed." : ", unencrypted (--plain)."))
        for choice in prepared.learned {
            Console.out("  \(choice.address): encrypted to a key \(choice.origin?.words ?? "") (\(Fingerprint.text(choice.certificate.fingerprint))), not checked by you")
        }
        if let folder = outcome.sentFolder {
            Console.out("A copy is in \(folder).")
        } else if let problem = outcome.copyProblem {
            Console.err("The message was sent, but no copy could be kept in the Sent folder: \(problem)")
        }
    }
}
