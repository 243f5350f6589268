import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyServer
import ParleyTerminal

extension Parley.Server.Admin {
    /// `parley server admin accounts …`.
    struct Accounts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accounts",
            abstract: "List, inspect, disable, enable and delete accounts.",
            subcommands: [List.self, Show.self, Disable.self, Enable.self, Delete.self],
            defaultSubcommand: List.self)
    }
}

extension Parley.Server.Admin.Accounts {
    /// `parley server admin accounts list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Every account: number, state, e-mail, name, devices, last seen (the default).")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions

        func run() async throws {
            let accounts = try await database.withStore { store in try await store.accountSummaries() }
            for account in accounts {
                if database.json {
                    Console.json(AdminText.json([
                        "id": account.id, "email": account.email, "name": account.displayName, "state": AdminText.state(account),
                        "devices": account.devices, "last_seen": account.lastSeen, "created_at": account.createdAt,
                    ]))
                } else {
                    Console.out("\(account.id)\t\(AdminText.state(account))\t\(account.email)\t\(TerminalText.visible(account.displayName))\t\(account.devices) device\(account.devices == 1 ? "" : "s")\tlast seen \(AdminText.date(account.lastSeen))")
                }
            }
            if accounts.isEmpty, !database.json { Console.out("No accounts yet.") }
        }
    }

    /// `parley server admin accounts show ACCOUNT`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "What the server holds about one account (never a message: it has none in the clear).")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String

        func run() async throws {
            let summary = try await database.withAdmin { try await $0.summary(account) }
            if database.json {
                return Console.json(AdminText.json([
                    "id": summary.id, "email": summary.email, "name": summary.displayName, "state": AdminText.state(summary),
                    "created_at": summary.createdAt, "disabled_at": summary.disabledAt, "devices": summary.devices, "last_seen": summary.lastSeen,
                    "conversations": summary.conversations, "waiting_ciphertexts": summary.waitingEnvelopes,
                    "waiting_bytes": summary.waitingBytes, "files": summary.files, "file_bytes": summary.fileBytes,
                ]))
            }
            Console.out("Account \(summary.id): \(summary.email)")
            Console.out("  name:          \(TerminalText.visible(summary.displayName))")
            Console.out("  state:         \(AdminText.state(summary))\(summary.disabledAt.map { " since \(AdminText.date($0))" } ?? "")")
            Console.out("  created:       \(AdminText.date(summary.createdAt))")
            Console.out("  devices:       \(summary.devices), last seen \(AdminText.date(summary.lastSeen))")
            Console.out("  conversations: \(summary.conversations)")
            Console.out("  waiting:       \(summary.waitingEnvelopes) ciphertexts (\(AdminText.bytes(summary.waitingBytes)))")
            Console.out("  files:         \(summary.files) (\(AdminText.bytes(summary.fileBytes)))")
        }
    }

    /// `parley server admin accounts disable ACCOUNT`.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Refuse the account's logins and close its connections at once, until 'enable'.",
            discussion: "Nothing is deleted: messages for it keep waiting (and expire with the retention period).")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String

        func run() async throws {
            let (record, reach) = try await database.withAdmin { try await $0.disable(account, now: Int64(Date().timeIntervalSince1970 * 1000)) }
            Console.out("Disabled \(record.email) (account \(record.id)): its logins are refused, and \(AdminText.closed(reach)).")
        }
    }

    /// `parley server admin accounts enable ACCOUNT`.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Let a disabled account log in again.")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String

        func run() async throws {
            let record = try await database.withAdmin { try await $0.enable(account) }
            Console.out("Enabled \(record.email) (account \(record.id)): it can log in again.")
        }
    }

    /// `parley server admin accounts delete ACCOUNT`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an account and everything the server holds for it, as its owner's 'parley account delete' does.",
            discussion: """
                Its devices, keys, waiting ciphertexts and unfetched messages it sent, files, location, profile \
                and blocks go; its direct conversations go for the other person too; it leaves its groups. Its \
                contacts are told, its connections close. The address can register again. There is no undo: \
                asks you to type the e-mail at a terminal, or give --yes.
                """)
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String
        @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false

        func run() async throws {
            let (deleted, reach) = try await database.withAdmin { admin in
                try await admin.delete(account) { record in
                    guard !yes else { return }
                    guard isatty(STDIN_FILENO) == 1 else {
                        throw CommandFailure("delete removes \(record.email) for good; confirm with --yes when not at a terminal")
                    }
                    FileHandle.standardError.write(Data("This deletes \(record.email) (account \(record.id)) for good. Type the e-mail to confirm: ".utf8))
                    guard readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() == record.email else {
                        throw CommandFailure("not confirmed; nothing was changed")
                    }
                }
            }
            let told = Set(deleted.contacts + deleted.directConversations.flatMap(\.members)).count
            Console.out("Deleted \(deleted.email) (account \(deleted.accountID)) and everything the server held for it; \(told) contact\(told == 1 ? " was" : "s were") told, and \(AdminText.closed(reach)).")
        }
    }
}
