import ArgumentParser
import Foundation
import ParleyMail

extension Parley.Mail {
    /// `parley mail watch`: stays connected (IMAP IDLE) and prints new mail as it arrives.
    struct MailWatchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Stay connected (IMAP IDLE) and print new mail as it arrives; Ctrl-C to stop.",
            discussion: "Each arrival is synced into the store first, so `parley mail read N` works on what it prints.")
        @OptionGroup var options: MailOptions
        @Option(help: "The folder to watch.") var folder = "INBOX"

        func run() async throws {
            let store = try options.open()
            let folder = folder
            Console.err("Watching \(folder) of \(store.email) (Ctrl-C to stop).")
            _ = try await MailFailure.onThread({ () throws(MailboxError) -> Int in
                try MailWatch(store: store, folder: folder).run { listings in
                    for listing in listings { Console.out(Parley.Mail.MailList.line(listing)) }
                }
            })
        }
    }
}
