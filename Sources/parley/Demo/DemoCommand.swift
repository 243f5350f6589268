import ArgumentParser
import Foundation
import ParleyDemo
import ParleyTerminal

extension Parley {
    /// `parley demo`: a narrated tour of Parley with an embedded server and three people.
    struct Demo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Run a narrated tour: an embedded server, three people, 1:1 and group chat, a server restart.",
            discussion: """
                Everything runs on this machine: a development server on a free loopback port with SQLite in a \
                temporary directory, and three accounts with separate homes. At each step the tour prints what \
                the server stored (ciphertext) beside what the people see (plaintext). It cleans up and exits 0.
                """)

        @Flag(help: "Keep the temporary directory (server data and homes) and print where it is.")
        var keep = false

        func run() async throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-demo-\(UUID().uuidString)")
            let tour = DemoTour(root: root, narrator: DemoNarrator())
            do {
                try await tour.run()
            } catch {
                await tour.shutdown()
                if !keep { try? FileManager.default.removeItem(at: root) }
                throw CommandFailure("the demo failed: \(error)")
            }
            await tour.shutdown()
            if keep {
                print("Kept the demo data in \(root.path)")
            } else {
                try? FileManager.default.removeItem(at: root)
            }
        }
    }
}
