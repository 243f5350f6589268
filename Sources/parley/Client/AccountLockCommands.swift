import ArgumentParser
import Foundation
import ParleyClient
import ParleyVault
import ParleyTerminal

extension Parley.Account {
    /// `parley account lock`: the running parley process of this account drops its key now.
    struct Lock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock",
            abstract: "Lock the account's running parley process now (a chat left open elsewhere, say).",
            discussion: """
                A running 'parley chat' clears its screen and asks for the PIN; 'parley read --follow' ends. One-shot \
                commands lock by themselves when they finish, and a chat after --autolock idle minutes.
                """)
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let email = try options.accountEmail()
            let holder: String?
            do { holder = try AccountHome.requestLock(home: options.homeURL, email: email) } catch { throw CommandFailure("\(error)") }
            options.output(["locked": holder ?? ""]) {
                holder.map { "Asked \($0) to lock \(email)." } ?? "No parley process has \(email) open: it is locked."
            }
        }
    }

    /// `parley account unlock`: checks the vault PIN (a right one resets the count of wrong ones).
    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "Check the vault PIN; a right one resets the count of wrong ones (ten in a row erase the local data).",
            discussion: """
                Every command unlocks the vault for its own run with the PIN (prompt or PARLEY_PIN); a locked \
                'parley chat' takes the PIN on its own screen.
                """)
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let email = try options.accountEmail()
            let directory = AccountHome.directory(home: options.homeURL, email: email)
            guard case .pin = (try? AccountHome.protection(directory: directory)) ?? .none else {
                throw CommandFailure("\(email)'s vault has no PIN, so it never locks; set one with 'parley account set-pin'")
            }
            let client = try options.open()
            await client.close()
            options.output(["unlocked": true]) { "The PIN is right: \(email)'s vault opens." }
        }
    }
}
