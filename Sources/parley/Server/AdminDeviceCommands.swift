import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyServer
import ParleyTerminal

extension Parley.Server.Admin {
    /// `parley server admin devices …`.
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices", abstract: "List an account's devices, or remove one (a lost laptop).",
            subcommands: [List.self, Remove.self], defaultSubcommand: List.self)
    }
}

extension Parley.Server.Admin.Devices {
    /// `parley server admin devices list ACCOUNT`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "An account's devices: number, name, added, last seen.")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String

        func run() async throws {
            let devices = try await database.withAdmin { try await $0.devices(account) }
            for device in devices {
                if database.json {
                    Console.json(AdminText.json([
                        "device_id": Int(device.deviceID), "name": device.name, "created_at": device.createdAt, "last_seen": device.lastSeen,
                    ]))
                } else {
                    Console.out("\(device.deviceID)\t\(TerminalText.visible(device.name))\tadded \(AdminText.date(device.createdAt))\tlast seen \(AdminText.date(device.lastSeen))")
                }
            }
            if devices.isEmpty, !database.json { Console.out("The account has no devices.") }
        }
    }

    /// `parley server admin devices remove ACCOUNT DEVICE`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a device from an account: its connections close, its keys and waiting ciphertexts go.",
            discussion: "The account's other devices hear 'device_removed'; senders stop encrypting to it. Ids are never reused.")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The account's number or e-mail address.") var account: String
        @Argument(help: "The device's number (see 'devices list').") var device: UInt32

        func run() async throws {
            let (record, reach) = try await database.withAdmin { try await $0.removeDevice(device, of: account) }
            Console.out("Removed device \(device) of \(record.email); \(AdminText.closed(reach)).")
        }
    }
}

extension Parley.Server.Admin {
    /// `parley server admin stats`.
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Accounts, devices, stored ciphertext, files and, if the server runs, its connections.")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions

        func run() async throws {
            let (stats, reach) = try await database.withAdmin { try await $0.stats() }
            var connections: (nodes: Int, open: Int?, signedIn: Int)?
            if case .reached(let nodes, let open, let signedIn)? = reach { connections = (nodes, open, signedIn) }
            if database.json {
                return Console.json(AdminText.json([
                    "accounts": stats.accounts, "pending_accounts": stats.pendingAccounts, "disabled_accounts": stats.disabledAccounts,
                    "devices": stats.devices, "conversations": stats.conversations, "ciphertexts": stats.envelopes,
                    "ciphertext_bytes": stats.ciphertextBytes, "files": stats.files, "file_bytes": stats.fileBytes,
                    "running": reach.map { $0 != .notRunning }, "connections": connections?.open, "signed_in": connections?.signedIn,
                ]))
            }
            let pending = stats.pendingAccounts
            Console.out("accounts:      \(stats.accounts) (\(stats.disabledAccounts) disabled; \(pending) registration\(pending == 1 ? "" : "s") not confirmed)")
            Console.out("devices:       \(stats.devices)")
            Console.out("conversations: \(stats.conversations)")
            Console.out("ciphertexts:   \(stats.envelopes) waiting for devices, \(AdminText.bytes(stats.ciphertextBytes))")
            Console.out("files:         \(stats.files), \(AdminText.bytes(stats.fileBytes))")
            switch reach {
            case .reached(let nodes, let open, let signedIn)?:
                let where_ = nodes > 1 ? " on \(nodes) nodes" : ""
                Console.out("connections:   \(open.map { "\($0) open, " } ?? "")\(signedIn) signed in\(where_)")
            case .notRunning?: Console.out("connections:   none (no server is running)")
            case nil: Console.out("connections:   unknown")
            }
        }
    }
}
