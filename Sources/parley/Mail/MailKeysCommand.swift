import ArgumentParser
import Foundation
import ParleyMail
import ParleyMailFormats
import ParleyPGP
import ParleyCrypto
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail keys`: the correspondents' keys Parley learned (Autocrypt, gossip, Web Key Directory).
    struct MailKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Correspondents' keys learned from Autocrypt headers and Web Key Directories.",
            discussion: """
                `send` uses your own keys first (`parley pgp keys import`), then these (docs/MAIL.md §6). Learned keys stay \
                in the mail store, marked with where they came from; they never enter your keyring.
                """,
            subcommands: [MailKeysList.self, MailKeysLookup.self],
            defaultSubcommand: MailKeysList.self)
    }

    struct MailKeysList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List learned keys: address, origin, fingerprint, since.")
        @OptionGroup var options: MailOptions

        func run() async throws {
            let store = try options.open()
            let keys = try MailFailure.run { () throws(MailboxError) in try store.learnedKeys(now: Int64(Date().timeIntervalSince1970)) }
            guard !keys.isEmpty else {
                Console.out("No learned keys yet: they come with mail (Autocrypt) and from `parley mail keys lookup ADDRESS`.")
                return
            }
            for key in keys {
                Console.out("\(key.address)  \(key.origin.rawValue)  \(Hex.upper(key.certificate.fingerprint))  \(Self.day(key.since))")
            }
        }

        static func day(_ seconds: Int64) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }

    struct MailKeysLookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lookup",
            abstract: "Ask an address's Web Key Directory for its key now, and keep what it gives.",
            discussion: "HTTPS to openpgpkey.DOMAIN, else DOMAIN, with the system's trust roots (docs/MAIL.md §6.2).")
        @OptionGroup var options: MailOptions
        @Argument(help: "The address.") var address: String

        func run() async throws {
            guard MailAddresses.isAddress(address) else { throw CommandFailure("\"\(address.prefix(80))\" is not a mail address") }
            let store = try options.open()
            let address = address.lowercased()
            let lookup = try MailFailure.run { () throws(MailboxError) in try WKDLookup() }
            let outcome: WKDLookup.Outcome
            do {
                outcome = try await lookup.key(for: address)
            } catch {
                throw CommandFailure("\(error)")
            }
            switch outcome {
            case .found(let certificate, let url):
                try MailFailure.run { () throws(MailboxError) in
                    try store.remember(wkd: certificate, for: address, at: Int64(Date().timeIntervalSince1970))
                }
                Console.out("Found \(address)'s key \(Hex.upper(certificate.fingerprint)) at \(url); kept for `parley mail send`.")
            case .none(let why):
                throw CommandFailure("no key found: \(why)")
            }
        }
    }
}
