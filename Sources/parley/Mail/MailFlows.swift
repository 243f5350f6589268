import ParleyMail
import ParleyPGP
import ParleyTerminal

/// ParleyMail's flows as the commands call them: the pass phrase from `PassphraseOnce` (a file, the
/// environment or a prompt), now, and what is said on the terminal.
extension MailOutgoing {
    /// The message to submit (`MailOutgoing.message`), the pass phrase asked for at most once.
    static func message(_ composer: MailComposer, recipients: [String], store: MailStore, settings: MailAccountSettings,
                        plain: Bool, lookup: Bool, keyring: any PGPKeyStore, passphrase: PassphraseOnce) async throws -> Prepared {
        try await message(composer, recipients: recipients, store: store, settings: settings, plain: plain, lookup: lookup,
                          keyring: keyring, passphrase: passphrase.get, now: PGPFailure.now) { address in
            Console.err("Asking the Web Key Directory for \(address)'s key…")
        }
    }

    /// Prints what the person is told once the message went.
    static func say(_ outcome: MailSubmission.Outcome, recipients: [String], prepared: Prepared) {
        let (lines, warning) = report(outcome, recipients: recipients, prepared: prepared)
        for line in lines { Console.out(line) }
        if let warning { Console.err(warning) }
    }
}

extension MailOpening {
    /// Opens message `id` (`MailOpening.open`), the pass phrase asked for only when there is a way to give one.
    static func open(_ id: Int64, store: MailStore, keyring: any PGPKeyStore, passphrase: PassphraseOnce,
                     passwords: [[UInt8]] = [], cache: DecryptedKeyCache? = nil) throws -> Opened {
        try open(id, store: store, keyring: keyring, passphrases: passphrase.available, passwords: passwords, cache: cache, now: PGPFailure.now)
    }

    /// `open` with the keyring and pass phrase `pgp` describes (one command, one message).
    static func open(_ id: Int64, store: MailStore, pgp: PGPOptions, passwords: [[UInt8]] = []) throws -> Opened {
        try open(id, store: store, keyring: try pgp.openKeyring(), passphrase: PassphraseOnce(pgp), passwords: passwords)
    }
}
