import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyTerminal

extension Parley {
    /// `parley chat`: the full-screen terminal client.
    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chat",
            abstract: "Chat full-screen in the terminal: conversations, live messages, replies, reactions, pins.",
            discussion: """
                Type a line and press Enter to send it to the open conversation. Commands: /reply N text, /react N 👍, \
                /pin N, /unpin N, /delete N, /open EMAIL, /fav, /lock, /help, /quit. After --autolock minutes without \
                decrypting anything, the vault locks and the screen asks for the PIN again. Tab and Shift-Tab switch conversations, \
                ↑ ↓ walk the input history, PgUp PgDn scroll. Key bindings: docs/CHAT.md.
                """)
        @OptionGroup var options: ClientOptions
        @Option(help: "Minutes without use after which the vault locks (1–1440).") var autolock: Int = 5
        @Option(help: "Open this conversation first (its id, as 'parley conversations' and 'parley search' show it).")
        var conversation: Int64?

        func validate() throws {
            guard (1...1440).contains(autolock) else { throw ValidationError("--autolock takes 1 to 1440 minutes") }
        }

        func run() async throws {
            // The PIN prompt (if any) needs the normal terminal, so the account opens before the screen switches.
            let client = try options.open(access: try options.vaultAccess(), autolockAfter: TimeInterval(autolock * 60))
            let terminal: Terminal
            do { terminal = try Terminal() } catch { throw CommandFailure(error.description) }
            await ChatSession(client: client, terminal: terminal, opening: conversation).run()
        }
    }
}
