import ArgumentParser
import Foundation
import ParleyMail
import ParleyPGP
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail reply N`: answers a stored message in its thread; the original is marked answered.
    struct MailReply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reply",
            abstract: "Answer a stored message (the text from standard input), encrypted as `send` decides.",
            discussion: """
                Goes to the message's Reply-To or From (with --all, also its To and Cc, you left out), with "Re:" and the \
                thread's In-Reply-To and References; the original is marked answered on the server.
                """)
        @OptionGroup var options: MailOptions
        @Flag(help: "Reply to everyone the message went to.") var all = false
        @Option(help: "Attach a file (repeat for more).") var attach: [String] = []
        @Flag(help: "Send unencrypted and unsigned when a recipient has no key.") var plain = false
        @Flag(help: "Do not quote the original's text below the answer.") var noQuote = false
        @Flag(name: .customLong("no-lookup"), help: "Do not ask recipients' Web Key Directories for their keys.") var noLookup = false
        @OptionGroup var keys: MailKeyOptions
        @Argument(help: "The message's number, as `parley mail list` shows it.") var id: Int64

        func run() async throws {
            let store = try options.open()
            let id = id
            let (listing, raw) = try MailFailure.run { () throws(MailboxError) in try store.message(id) }
            let settings = try MailFailure.run { () throws(MailboxError) in try store.settings() }
            let headers: MailHeaders
            do { headers = try MailHeaders.of(eml: raw) } catch { throw CommandFailure("cannot read message \(id)'s header: \(error)") }
            let addressing = try MailReplyAddressing(replyingTo: headers, id: id, me: settings.email, all: all)
            let pgp = try options.pgpOptions(email: settings.email, keys: keys)
            let passphrase = PassphraseOnce(pgp)
            let keyring = try pgp.openKeyring()
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            // An original that cannot be read (not for this key, damaged) is answered without a quote.
            let original = noQuote ? nil : (try? MailOpening.open(id, store: store, keyring: keyring, passphrase: passphrase))?.mail
            var composer = MailComposer(reply: addressing, to: headers, from: settings.email, text: text, quoting: original)
            composer.attachments = try attach.map(MailOutgoing.attachment)
            let recipients = composer.to + composer.cc
            let prepared = try await MailOutgoing.message(composer, recipients: recipients, store: store, settings: settings, plain: plain,
                                                          lookup: !noLookup, keyring: keyring, passphrase: passphrase)
            let answering = try MailFailure.run { () throws(MailboxError) in try store.location(of: listing) }
            let outcome = try await MailFailure.onThread({ () throws(MailboxError) in
                try MailSubmission.send(prepared.message, recipients: recipients, settings: settings, answering: answering)
            })
            if outcome.markedAnswered { try MailFailure.run { () throws(MailboxError) in try store.markAnswered(id) } }
            MailOutgoing.say(outcome, recipients: recipients, prepared: prepared)
        }
    }
}
