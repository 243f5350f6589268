import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

extension Parley.Account {
    /// `parley account delete`: the account is removed from the server and this device's copy is erased.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the account from the server for good and erase this device's data for it.",
            discussion: """
                The server removes the account and everything it holds for it: devices, keys, messages waiting \
                for you and messages you sent that were not fetched yet, files, location, profile and avatar, \
                blocks. Your direct conversations go for the other person too; you leave your groups (a group \
                you created passes to its longest-standing member). Your contacts see the account as gone; \
                your other devices are disconnected (erase them with 'parley account logout --yes'). The \
                address can register again later, as a new account with new keys. There is no undo. Asks you \
                to type the account's e-mail to confirm, unless --yes.
                """)
        @OptionGroup var options: ClientOptions
        @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false

        func run() async throws {
            let email = try options.accountEmail()
            try Confirmation.byTypingEmail(
                email, yes: yes,
                what: "This deletes \(email) from the server for good, with everything it holds for it, and erases this device's copy.",
                refusal: "delete removes \(email) from the server for good; confirm with --yes when not at a terminal")
            let client = try options.open()
            do { try await AccountExit.deleteAccount(client) } catch { throw CommandFailure("\(error)") }
            options.output(["deleted": email]) {
                "Deleted \(email): the server holds nothing of it any more, and this device's data for it was erased."
            }
        }
    }
}
