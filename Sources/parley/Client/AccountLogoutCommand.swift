import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

extension Parley.Account {
    /// `parley account logout`: this device leaves the account and its local data is erased.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "logout",
            abstract: "Sign this device out of the account and erase its local data.",
            discussion: """
                The server forgets this device (your other devices see it removed) and everything this device \
                stored for the account is deleted, its messages included. The account itself and your other \
                devices stay. To use the account here again, pair this device from another one \
                ('parley account pair'). Asks you to type the account's e-mail to confirm, unless --yes.
                """)
        @OptionGroup var options: ClientOptions
        @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false

        func run() async throws {
            let email = try options.accountEmail()
            try Confirmation.byTypingEmail(
                email, yes: yes, what: "This erases everything this device holds for \(email).",
                refusal: "logout erases this device's copy of \(email); confirm with --yes when not at a terminal")
            let client = try options.open()
            let device = await client.deviceID
            let outcome: AccountExit.SignOut
            do { outcome = try await AccountExit.signOut(client) } catch { throw CommandFailure("\(error)") }
            // Already out of the account (removed elsewhere, or keys rotated): only the local copy was left.
            guard outcome == .signedOut else {
                return options.output(["erased": email]) {
                    "Device \(device ?? 0) was no longer part of \(email); its local data was erased."
                }
            }
            options.output(["signed_out": email]) {
                "Signed out: device \(device ?? 0) left \(email) and its local data was erased."
            }
        }
    }
}
