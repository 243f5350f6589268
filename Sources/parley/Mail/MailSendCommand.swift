import ArgumentParser
import Foundation
import ParleyMail
import ParleyPGP

extension Parley.Mail {
    /// `parley mail send`: encrypted and signed when every recipient has a key, else only with --plain.
    struct MailSend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send mail (the text from standard input): encrypted and signed when every recipient has a key.",
            discussion: """
                Recipients' keys come from your `parley pgp` keys (`parley pgp keys import`); if one has none, nothing is \
                sent unless you pass --plain (unencrypted, unsigned). Encrypted mail is also encrypted to your own key, so \
                the copy kept in the Sent folder stays readable. Needs the account's submission server (--smtp at `account add`).
                """)
        @OptionGroup var options: MailOptions
        @Option(help: "A recipient (repeat for more).") var to: [String] = []
        @Option(help: "A copy recipient (repeat for more).") var cc: [String] = []
        @Option(help: "The subject.") var subject: String
        @Option(help: "Attach a file (repeat for more).") var attach: [String] = []
        @Flag(help: "Send unencrypted and unsigned when a recipient has no key.") var plain = false
        @OptionGroup var keys: MailKeyOptions

        func run() async throws {
            guard !to.isEmpty else { throw CommandFailure("give at least one --to") }
            let recipients = to + cc
            for address in recipients where !MailRecipients.isAddress(address) {
                throw CommandFailure("\"\(address.prefix(80))\" is not a mail address")
            }
            let store = try options.open()
            let settings = try MailFailure.run { () throws(MailboxError) in try store.settings() }
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            var composer = MailComposer(from: settings.email, to: to, subject: subject, text: text)
            composer.cc = cc
            composer.attachments = try attach.map(MailOutgoing.attachment)
            let (message, encrypted) = try MailOutgoing.message(composer, recipients: recipients, settings: settings, plain: plain,
                                                                 keys: try options.pgpOptions(email: settings.email, keys: keys))
            let outcome = try await MailFailure.onThread({ () throws(MailboxError) in
                try MailSubmission.send(message, recipients: recipients, settings: settings)
            })
            MailOutgoing.report(outcome, recipients: recipients, encrypted: encrypted)
        }
    }
}

/// Which certificate belongs to which mail address.
enum MailRecipients {
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !text.contains(where: { $0.isWhitespace || $0.isNewline || "<>,;\"".contains($0) })
    }

    /// For each address (lowercased), the first certificate with a user ID naming exactly that address.
    static func certificates(for addresses: [String], in certificates: [Certificate]) -> [String: Certificate] {
        var found: [String: Certificate] = [:]
        for address in addresses.map({ $0.lowercased() }) {
            found[address] = certificates.first { certificate in
                certificate.userIDs.contains { userID in
                    let id = userID.string.lowercased()
                    return id == address || id.hasSuffix("<\(address)>")
                }
            }
        }
        return found
    }
}
