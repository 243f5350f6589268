import ParleyMailFormats
import ParleyPGP
import ParleyCrypto

/// A stored message opened as `read`, `save`, `watch` and `reply` show it: decrypted with the person's keys,
/// signatures checked (with learned keys too), and what it gossips learned (docs/MAIL.md §6.1).
public enum MailOpening {
    /// The message, and a line for each good signature made by a key Parley learned rather than one the person
    /// imported.
    public struct Opened: Sendable {
        /// The message as read.
        public let mail: Mail
        /// A line for each signer whose key was learned, not checked by the person.
        public let notes: [String]
    }

    /// Opens message `id` with `keyring` (opened once by the caller: a vault may ask for its PIN). `passphrases`
    /// gives what can unlock the secret keys (none when there is no way to ask). `cache`: unlocked keys kept
    /// between messages (`watch`); with it the pass phrase is asked only when a key the message needs is not in
    /// the cache. `passwords`: for parts encrypted to a password.
    public static func open(_ id: Int64, store: MailStore, keyring: any PGPKeyStore, passphrases: () throws -> [[UInt8]],
                            passwords: [[UInt8]] = [], cache: DecryptedKeyCache? = nil, now: UInt32) throws -> Opened {
        let (_, raw) = try MailFlowError.run { () throws(MailboxError) in try store.message(id) }
        guard !raw.isEmpty else { throw MailFlowError("message \(id) was too large to fetch; read it in another mail client") }
        let keys = try keyring.secretKeys()
        let mine = try keyring.certificates()
        let encrypted = MailTranscript.mayHoldEncrypted(raw)
        let known = Set(mine.map(\.fingerprint))
        let learned = try MailFlowError.run { () throws(MailboxError) in try store.learnedKeys(now: Int64(now)) }
            .filter { !known.contains($0.certificate.fingerprint) }
        func read(_ passphrases: [[UInt8]]) throws -> Mail {
            do {
                return try MailReader.read(eml: raw, keys: keys, passphrases: passphrases, passwords: passwords,
                                           verifyWith: mine + learned.map(\.certificate), cache: cache)
            } catch {
                throw MailFlowError("cannot read message \(id): \(error)")
            }
        }
        var mail: Mail
        if cache != nil, encrypted {
            mail = try read([])
            if mail.blocks.contains(.error(.needsPassphrase)) { mail = try read(try passphrases()) }
        } else {
            mail = try read(!keys.isEmpty && encrypted ? try passphrases() : [])
        }
        try MailFlowError.run { () throws(MailboxError) in
            try store.learn(AutocryptReceipt.gossip(mail, account: store.email), gossip: true)
        }
        return Opened(mail: mail, notes: learnedSigners(mail, learned: learned))
    }

    /// A line for each good signature in `mail` made by one of the `learned` keys.
    public static func learnedSigners(_ mail: Mail, learned: [LearnedKey]) -> [String] {
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
            let hex = Hex.upper(fingerprint)
            let note = "The signing key \(hex) for \(key.address) was learned \(key.origin.words), not checked by you."
            if !notes.contains(note) { notes.append(note) }
        }
        return notes
    }
}
