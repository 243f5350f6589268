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
            for note in MailOpening.learnedSigners(mail, learned: try MailOpening.learnedOnly(store: store, keys: try options.pgpOptions(email: store.email, keys: keys))) {
                Console.out(note)
            }
            // Read here is read: the next `parley mail sync` tells the server.
            try MailFailure.run { () throws(MailboxError) in try store.markSeen(id) }
            if out != nil { Console.err("Saved \(saved) attachment(s).") }
        }
    }
}

/// A stored message opened as `read` and `save` show it: decrypted with the person's keys, signatures checked.
enum MailOpening {
    /// `cache`: unlocked keys kept between messages (`watch`); with it the pass phrase is asked only when a key
    /// the message needs is not in the cache. `passwords`: for parts encrypted to a password.
    static func open(_ id: Int64, store: MailStore, keys pgp: PGPOptions, passwords: [[UInt8]] = [], cache: DecryptedKeyCache? = nil,
                     passphrase: PassphraseOnce? = nil) throws -> ParleyPGP.Mail {
        let passphrase = passphrase ?? PassphraseOnce(pgp)
        let (_, raw) = try MailFailure.run { () throws(MailboxError) in try store.message(id) }
        guard !raw.isEmpty else { throw CommandFailure("message \(id) was too large to fetch; read it in another mail client") }
        let keyring = try pgp.openKeyring()
        let keys = try keyring.secretKeys()
        let encrypted = Parley.PGP.ReadMail.mayHoldEncrypted(raw)
        // Keys learned from Autocrypt or a Web Key Directory check signatures too; `read` says when one did.
        let verifiers = try keyring.certificates() + learnedOnly(store: store, keys: pgp).map(\.certificate)
        func read(_ passphrases: [[UInt8]]) throws -> ParleyPGP.Mail {
            do {
                return try MailReader.read(eml: raw, keys: keys, passphrases: passphrases, passwords: passwords,
                                           verifyWith: verifiers, cache: cache)
            } catch {
                throw CommandFailure("cannot read message \(id): \(error)")
            }
        }
        var mail: ParleyPGP.Mail
        if cache != nil, encrypted {
            mail = try read([])
            if mail.blocks.contains(.error(.needsPassphrase)) { mail = try read(try passphrase.available()) }
        } else {
            mail = try read(!keys.isEmpty && encrypted ? try passphrase.available() : [])
        }
        // What the decrypted message gossips about its other recipients' keys (docs/MAIL.md §6.1).
        try MailFailure.run { () throws(MailboxError) in
            try store.learn(AutocryptReceipt.gossip(mail, account: store.email), gossip: true)
        }
        return mail
    }

    /// The learned keys (docs/MAIL.md §6) that are not also among the person's own keys.
    static func learnedOnly(store: MailStore, keys pgp: PGPOptions) throws -> [LearnedKey] {
        let mine = Set(try pgp.openKeyring().certificates().map(\.fingerprint))
        return try MailFailure.run { () throws(MailboxError) in try store.learnedKeys(now: Int64(PGPFailure.now)) }
            .filter { !mine.contains($0.certificate.fingerprint) }
    }

    /// A line for each good signature made by a learned key rather than one the person imported.
    static func learnedSigners(_ mail: ParleyPGP.Mail, learned: [LearnedKey]) -> [String] {
        var notes: [String] = []
        for block in mail.blocks {
            let signature: SignatureStatus
            switch block {
            case .plainText(_, let status), .decryptedText(_, let status): signature = status
            case .attachment(let attachment): signature = attachment.signature
            default: continue
            }
            guard case .valid(let fingerprint) = signature,
                  let key = learned.first(where: { $0.certificate.fingerprint == fingerprint }) else { continue }
            let note = "The signing key \(Fingerprint.text(fingerprint)) for \(key.address) was learned \(key.origin.words), not checked by you."
            if !notes.contains(note) { notes.append(note) }
        }
        return notes
    }
}
