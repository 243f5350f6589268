import ParleyMail
import ParleyPGP

/// A stored message opened as `read`, `save`, `watch` and `reply` show it: decrypted with the person's keys,
/// signatures checked (with learned keys too), and what it gossips learned (docs/MAIL.md §6.1).
enum MailOpening {
    /// The message, and a line for each good signature made by a key Parley learned rather than one the person
    /// imported.
    struct Opened {
        let mail: ParleyPGP.Mail
        let notes: [String]
    }

    /// Opens message `id` with `keyring` (opened once by the caller: a vault may ask for its PIN). `cache`: unlocked
    /// keys kept between messages (`watch`); with it the pass phrase is asked only when a key the message needs is
    /// not in the cache. `passwords`: for parts encrypted to a password.
    static func open(_ id: Int64, store: MailStore, keyring: any PGPKeyStore, passphrase: PassphraseOnce,
                     passwords: [[UInt8]] = [], cache: DecryptedKeyCache? = nil) throws -> Opened {
        let (_, raw) = try MailFailure.run { () throws(MailboxError) in try store.message(id) }
        guard !raw.isEmpty else { throw CommandFailure("message \(id) was too large to fetch; read it in another mail client") }
        let keys = try keyring.secretKeys()
        let mine = try keyring.certificates()
        let encrypted = MailTranscript.mayHoldEncrypted(raw)
        let known = Set(mine.map(\.fingerprint))
        let learned = try MailFailure.run { () throws(MailboxError) in try store.learnedKeys(now: Int64(PGPFailure.now)) }
            .filter { !known.contains($0.certificate.fingerprint) }
        func read(_ passphrases: [[UInt8]]) throws -> ParleyPGP.Mail {
            do {
                return try MailReader.read(eml: raw, keys: keys, passphrases: passphrases, passwords: passwords,
                                           verifyWith: mine + learned.map(\.certificate), cache: cache)
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
        try MailFailure.run { () throws(MailboxError) in
            try store.learn(AutocryptReceipt.gossip(mail, account: store.email), gossip: true)
        }
        return Opened(mail: mail, notes: learnedSigners(mail, learned: learned))
    }

    /// `open` with the keyring and pass phrase `pgp` describes (one command, one message).
    static func open(_ id: Int64, store: MailStore, pgp: PGPOptions, passwords: [[UInt8]] = []) throws -> Opened {
        try open(id, store: store, keyring: try pgp.openKeyring(), passphrase: PassphraseOnce(pgp), passwords: passwords)
    }

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
