import ArgumentParser
import Foundation
import ParleyClient

extension Parley.Location {
    /// `parley location bpt-link`: the link a Berry Picker Tracker app user opens to follow this account.
    struct BPTLink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bpt-link",
            abstract: "Print the bpt:// link that lets a Berry Picker Tracker app user follow you.",
            discussion: """
                The link carries the key from 'bpt-key create' (encoded twice, as the app writes it): give it only \
                to people who may see where you are, over a private channel. 'bpt-key rotate' makes every link \
                given out so far useless.
                """)

        @OptionGroup var options: ClientOptions

        func run() async throws {
            let own = try options.bptOwnKey(try options.open())
            options.output(["link": own.link.link, "user_id": own.userID]) { own.link.link }
            if !options.json {
                ProgressLine.write("Anyone holding this link can follow you on \(own.server) until you run 'parley location bpt-key rotate'.")
            }
        }
    }
}
