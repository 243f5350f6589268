import ArgumentParser
import Foundation
import ParleyMail
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail sync`: fetches what is new, refreshes flags, drops what the server deleted.
    struct MailSyncCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Fetch new mail into the encrypted local store (every folder, or --folder).",
            discussion: "Incremental and resumable: each batch is stored with its position, so a sync cut short continues where it stopped.")
        @OptionGroup var options: MailOptions
        @Option(help: "Only this folder (e.g. INBOX).") var folder: String?
        @Flag(help: "Print nothing but errors.") var quiet = false

        func run() async throws {
            let store = try options.open()
            let quiet = quiet
            let folder = folder
            let report = try await MailFailure.onThread({ () throws(MailboxError) in
                try MailSync(store: store, progress: { line in if !quiet { Console.err(line) } }).run(folder: folder)
            })
            for name in report.reset {
                Console.err("\(name): the server renumbered this folder (new UIDVALIDITY); it was fetched again")
            }
            if !quiet {
                Console.out("Synced \(report.folders) folder(s): \(report.fetched) new, \(report.flagsChanged) changed, \(report.removed) removed"
                            + (report.markedRead > 0 ? ", \(report.markedRead) marked read on the server." : "."))
            }
        }
    }
}
