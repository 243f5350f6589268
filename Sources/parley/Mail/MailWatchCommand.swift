import ArgumentParser
import Foundation
import ParleyMail
import ParleyPGP
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail watch`: stays connected (IMAP IDLE) and prints new mail as it arrives, decrypted.
    struct MailWatchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Stay connected (IMAP IDLE) and print new mail as it arrives, decrypted; Ctrl-C to stop.",
            discussion: """
                Each arrival is synced into the store first, so `parley mail read N` works on what it prints. Encrypted \
                mail is shown decrypted: the pass phrase is asked when a key is first needed, and the unlocked key is \
                kept in memory only until it has gone 120 s unused (FlowCrypt's rule), then asked for again. \
                --summaries-only prints list lines and needs no key.
                """)
        @OptionGroup var options: MailOptions
        @Option(help: "The folder to watch.") var folder = "INBOX"
        @Flag(help: "Print a list line per message, without its text.") var summariesOnly = false
        @Option(help: "Forget an unlocked key after this many seconds without use.") var keyCacheSeconds = DecryptedKeyCache.defaultTimeout
        @OptionGroup var keys: MailKeyOptions

        func run() async throws {
            let store = try options.open()
            let folder = folder
            let pgp = summariesOnly ? nil : try options.pgpOptions(email: store.email, keys: keys)
            guard keyCacheSeconds > 0, keyCacheSeconds <= 86_400 else { throw CommandFailure("--key-cache-seconds must be between 1 and 86400") }
            let cache = DecryptedKeyCache(timeout: keyCacheSeconds)
            Console.err("Watching \(folder) of \(store.email) (Ctrl-C to stop).")
            _ = try await MailFailure.onThread({ () throws(MailboxError) -> Int in
                // The keyring is opened once for the whole watch (a vault may ask for its PIN), on this thread.
                var keyring: (any PGPKeyStore)?
                if let pgp {
                    do { keyring = try pgp.openKeyring() } catch { Console.err("Showing summaries only: \(error)") }
                }
                let watch = MailWatch(store: store, folder: folder)
                try watch.run { listings in
                    for listing in listings {
                        Console.out(Parley.Mail.MailList.line(listing))
                        guard let pgp, let keyring else { continue }
                        for line in Self.text(listing.id, store: store, keyring: keyring, pgp: pgp, cache: cache) { Console.out("      " + line) }
                    }
                }
            })
        }

        /// The message's blocks as `read` shows them (without the header lines the list line already gave), or
        /// why they cannot be shown; never stops the watch.
        /// The pass phrase is never kept between messages (a fresh `PassphraseOnce` each): only the cache keeps
        /// unlocked keys, and only while they are used.
        static func text(_ id: Int64, store: MailStore, keyring: any PGPKeyStore, pgp: PGPOptions, cache: DecryptedKeyCache) -> [String] {
            do {
                let opened = try MailOpening.open(id, store: store, keyring: keyring, passphrase: PassphraseOnce(pgp), cache: cache)
                let lines = try Parley.PGP.ReadMail.render(opened.mail, saveInto: nil).lines
                return Array(lines.drop { !$0.isEmpty }.dropFirst()) + opened.notes
            } catch {
                return ["(cannot show it here: \(error); try `parley mail read \(id)`)"]
            }
        }
    }
}
