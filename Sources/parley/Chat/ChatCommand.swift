import ArgumentParser
import Foundation

extension Parley {
    /// `parley chat`: the full-screen terminal client.
    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Chat full-screen in the terminal: conversations, live messages, replies, reactions, pins.",
            discussion: """
                Type a line and press Enter to send it to the open conversation. Commands: /reply N text, /react N 👍, \
                /pin N, /unpin N, /delete N, /open EMAIL, /fav, /help, /quit. Tab and Shift-Tab switch conversations, \
                ↑ ↓ walk the input history, PgUp PgDn scroll. Key bindings: docs/CHAT.md.
                """)
        @OptionGroup var options: ClientOptions

        func run() async throws {
            // The PIN prompt (if any) needs the normal terminal, so the account opens before the screen switches.
            let client = try options.open()
            let terminal: Terminal
            do { terminal = try Terminal() } catch { throw CommandFailure(error.description) }
            await ChatSession(client: client, terminal: terminal).run()
        }
    }
}
