import ArgumentParser
import Foundation
import ParleyMail
import ParleyMailFormats
import ParleyPGP
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail send`: encrypted and signed when every recipient has a key, else only with --plain.
    struct MailSend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send mail (the text from standard input): encrypted and signed when every recipient has a key.",
            discussion: """
                Recipients' keys come from your `parley pgp` keys (`parley pgp keys import`), else from keys learned from \
                Autocrypt headers of mail you received, else from the recipient's Web Key Directory (asked now; \
                --no-lookup to not ask). If one has none, nothing is sent unless you pass --plain (unencrypted, unsigned). Encrypted mail is also encrypted to your own key, so \
                the copy kept in the Sent folder stays readable. Needs the account's submission server (--smtp at `account add`).
                """)
        @OptionGroup var options: MailOptions
        @Option(help: "A recipient (repeat for more).") var to: [String] = []
        @Option(help: "A copy recipient (repeat for more).") var cc: [String] = []
        @Option(help: "The subject.") var subject: String
        @Option(help: "Attach a file (repeat for more).") var attach: [String] = []
        @Flag(help: "Send unencrypted and unsigned when a recipient has no key.") var plain = false
        @Flag(name: .customLong("no-lookup"), help: "Do not ask recipients' Web Key Directories for their keys.") var noLookup = false
        @OptionGroup var keys: MailKeyOptions

        func run() async throws {
            guard !to.isEmpty else { throw CommandFailure("give at least one --to") }
            let recipients = to + cc
            for address in recipients where !MailAddresses.isAddress(address) {
                throw CommandFailure("\"\(address.prefix(80))\" is not a mail address")
            }
            let store = try options.open()
            let settings = try MailFailure.run { () throws(MailboxError) in try store.settings() }
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            var composer = MailComposer(from: settings.email, to: to, subject: subject, text: text)
            composer.cc = cc
            composer.attachments = try attach.map(MailOutgoing.attachment)
            let pgp = try options.pgpOptions(email: settings.email, keys: keys)
            let prepared = try await MailOutgoing.message(composer, recipients: recipients, store: store, settings: settings, plain: plain,
                                                          lookup: !noLookup, keyring: try pgp.openKeyring(), passphrase: PassphraseOnce(pgp))
            let outcome = try await MailFailure.onThread({ () throws(MailboxError) in
                try MailSubmission.send(prepared.message, recipients: recipients, settings: settings)
            })
            MailOutgoing.say(outcome, recipients: recipients, prepared: prepared)
        }
    }
}
