import ArgumentParser
import Foundation
import ParleyMail
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail list`: what the store holds, newest first; works offline.
    struct MailList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List stored mail, newest first (offline; `sync` first for what is new).")
        @OptionGroup var options: MailOptions
        @Option(help: "Only this folder.") var folder: String?
        @Flag(help: "Only unread messages.") var unread = false
        @Option(help: "At most this many.") var limit = 50
        @Flag(help: "List the folders instead, with their counts.") var folders = false

        func run() async throws {
            let store = try options.open()
            if folders {
                for folder in try MailFailure.run({ () throws(MailboxError) in try store.folders() }) {
                    Console.out("\(folder.name)  \(folder.messages) message(s), \(folder.unread) unread")
                }
                return
            }
            let listings = try MailFailure.run { () throws(MailboxError) in
                try store.list(folder: folder, unreadOnly: unread, limit: max(1, limit))
            }
            guard !listings.isEmpty else {
                return Console.out(unread ? "No unread mail stored." : "No mail stored yet: run `parley mail sync`.")
            }
            for listing in listings { Console.out(Self.line(listing)) }
        }

        /// `  42 * 2026-11-26 09:14  Ann <ann@example.org>  Plan for Friday  [encrypted]`
        static func line(_ listing: MailListing) -> String {
            let date = listing.internalDate.map { Self.format.string(from: Date(timeIntervalSince1970: TimeInterval($0))) } ?? "                "
            let marks = (listing.isSeen ? " " : "*")
            let from = (listing.summary.from ?? "(no sender)").prefix(40)
            let subject = (listing.summary.subject ?? "(no subject)").prefix(80)
            let tags = (listing.summary.encrypted ? "  [encrypted]" : "") + (listing.folder == "INBOX" ? "" : "  (\(listing.folder))")
            return String(format: "%5lld", listing.id) + " \(marks) \(date)  \(from)  \(subject)\(tags)"
        }

        static let format: DateFormatter = {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            formatter.locale = Locale(identifier: "en_US_POSIX")
            return formatter
        }()
    }
}
