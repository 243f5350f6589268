import ArgumentParser
import Foundation
import ParleyMail
import ParleyPGP

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
                try MailWatch(store: store, folder: folder).run { listings in
                    for listing in listings {
                        Console.out(Parley.Mail.MailList.line(listing))
                        guard let pgp else { continue }
                        for line in Self.text(listing.id, store: store, keys: pgp, cache: cache) { Console.out("      " + line) }
                    }
                }
            })
        }

        /// The message's blocks as `read` shows them (without the header lines the list line already gave), or
        /// why they cannot be shown; never stops the watch.
        static func text(_ id: Int64, store: MailStore, keys: PGPOptions, cache: DecryptedKeyCache) -> [String] {
            do {
                let mail = try MailOpening.open(id, store: store, keys: keys, cache: cache)
                let lines = try Parley.PGP.ReadMail.render(mail, saveInto: nil).lines
                let notes = MailOpening.learnedSigners(mail, learned: try MailOpening.learnedOnly(store: store, keys: keys))
                return Array(lines.drop { !$0.isEmpty }.dropFirst()) + notes
            } catch {
                return ["(cannot show it here: \(error); try `parley mail read \(id)`)"]
            }
        }
    }
}
