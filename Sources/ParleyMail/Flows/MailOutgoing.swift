import Foundation
import ParleyMailFormats
import ParleyPGP
import ParleyCrypto

/// What `send` and `reply` share: the encryption rule, Autocrypt, attachments, and what the person is told.
public enum MailOutgoing {
    /// A message ready to submit.
    public struct Prepared: Sendable {
        /// The message as it goes to the submission server.
        public let message: [UInt8]
        /// Whether it is encrypted and signed (else plain, as `plain` allowed).
        public let encrypted: Bool
        /// Recipients encrypted to with a key that is not one of the person's own.
        public let learned: [RecipientKeys.Choice]
    }

    /// The message to submit: PGP/MIME encrypted to every recipient and to the sender, and signed, when every
    /// recipient has a key (docs/MAIL.md §5, §6); else, only with `plain`, the same message unencrypted. Either
    /// carries our Autocrypt header when the person has a secret key for the account's address. `passphrase` is
    /// asked only when signing; `asking` is told before a Web Key Directory is asked (with `lookup`).
    public static func message(_ composer: MailComposer, recipients: [String], store: MailStore, settings: MailAccountSettings,
                               plain: Bool, lookup: Bool, keyring keys: any PGPKeyStore, passphrase: () throws -> [UInt8],
                               now: UInt32, asking: (String) -> Void) async throws -> Prepared {
        var composer = composer
        let own = try keys.secretKeys().first { $0.names(settings.email) }
        if let own {
            let minimal = own.publicCertificate.minimal(for: settings.email, at: now)
            composer.autocrypt = AutocryptHeader(address: settings.email, preferMutual: true, keydata: minimal.packets.encoded).value
        }
        let discovery = RecipientKeys(store: store, lookup: lookup ? try MailFlowError.run { () throws(MailboxError) in try WKDLookup() } : nil)
        let found: RecipientKeys.Result
        do {
            found = try await discovery.resolve(recipients, own: try keys.certificates(), asking: asking)
        } catch let error as MailboxError {
            throw MailFlowError("\(error)")
        }
        guard found.missing.isEmpty else {
            guard plain else {
                let names = found.missing.map(\.address)
                let reasons = found.missing.compactMap(\.why)
                throw MailFlowError("not sent: \(names.joined(separator: ", ")) \(names.count == 1 ? "has" : "have") no OpenPGP key here"
                    + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
                    + "; import it with `parley pgp keys import FILE`, or send unencrypted with --plain")
            }
            return Prepared(message: composer.composePlain(), encrypted: false, learned: [])
        }
        guard let own else {
            throw MailFlowError("you have no secret key for \(settings.email) to sign with: make one with `parley pgp keys generate`")
        }
        let secret = try passphrase()
        composer.signer = try MailFlowError.pgp { try own.unlockedSigningKey(passphrases: [secret], now: now) }
        composer.sender = own.publicCertificate
        composer.recipients = found.chosen.map(\.certificate)
        // With two or more recipients, each learns the others' keys (Autocrypt gossip), inside the encryption.
        if found.chosen.count >= 2 {
            composer.gossip = found.chosen.map { choice in
                AutocryptHeader(address: choice.address, preferMutual: false,
                                keydata: choice.certificate.minimal(for: choice.address, at: now).packets.encoded).gossipValue
            }
        }
        let message = try MailFlowError.pgp { try composer.compose() }
        return Prepared(message: message, encrypted: true, learned: found.chosen.filter { $0.origin != nil })
    }

    /// `text` followed by the original's text, quoted (`> `), under an attribution line; attachments are not
    /// quoted, and at most 64 KiB of the original is.
    public static func quoting(_ text: String, original mail: Mail) -> String {
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

    /// The file at `path` as an attachment, named by its last path component.
    public static func attachment(_ path: String) throws(MailFlowError) -> MailAttachment {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw MailFlowError("cannot read \(path)") }
        return MailAttachment(name: url.lastPathComponent, mediaType: "application/octet-stream", data: Array(data))
    }

    /// What the person is told once the message went: the lines for standard output, and a warning for standard
    /// error when no copy could be kept.
    public static func report(_ outcome: MailSubmission.Outcome, recipients: [String], prepared: Prepared) -> (out: [String], warning: String?) {
        var lines = ["Sent to \(recipients.joined(separator: ", "))" + (prepared.encrypted ? ", encrypted and signed." : ", unencrypted (--plain).")]
        for choice in prepared.learned {
            let fingerprint = Hex.upper(choice.certificate.fingerprint)
            lines.append("  \(choice.address): encrypted to a key \(choice.origin?.words ?? "") (\(fingerprint)), not checked by you")
        }
        if let folder = outcome.sentFolder {
            lines.append("A copy is in \(folder).")
        } else if let problem = outcome.copyProblem {
            return (lines, "The message was sent, but no copy could be kept in the Sent folder: \(problem)")
        }
        return (lines, nil)
    }
}
