import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley profile …`.
    struct ProfileCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "profile", abstract: "Show or change profiles.", subcommands: [Show.self, Set.self, Avatar.self])
    }

    /// `parley contacts`.
    struct Contacts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "contacts", abstract: "List the people this device has talked to and their identity fingerprints.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let client = try options.open()
            let rows: [ContactRow]
            do { rows = try await ContactList.rows(client) } catch { throw CommandFailure("\(error)") }
            options.output(rows) {
                rows.isEmpty ? "No contacts yet." : rows.map { row in
                    "\(row.accountID)\t\(row.email ?? "-")\t\(row.name.map(TerminalText.name) ?? "-")\t\(row.identityFingerprint ?? "(no session yet)")\t\(row.trust)" + (row.replacedBy.map { "\t(replaced: the address is account \($0)'s now)" } ?? (row.accountDeleted ? "\t(deleted their account)" : ""))
                }.joined(separator: "\n")
            }
        }
    }
}

extension Parley.ProfileCommand {
    struct Show: AsyncParsableCommand {
        /// Who sees a field, as your own profile says it.
        static func audience(_ visibility: FieldVisibility) -> String {
            switch visibility {
            case .everyone: "everyone sees this"
            case .contacts: "your contacts see this"
            case .nobody: "only you see this"
            }
        }

        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show your profile, or someone's (by account id).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "An account id (default: yours).") var account: Int64?

        func run() async throws {
            let (profile, trust) = try await options.withClient { client in
                let profile = try await client.profiles.of(account)
                let trust: TrustStatus? = profile.accountID == (await client.accountID) ? nil : try client.trust.status(of: profile.accountID)
                return (profile, trust)
            }
            options.output(ProfileOutput(profile: profile, trust: trust?.rawValue)) {
                // Names and values are someone's words: shown with what could hide in them (a zero-width space).
                (["account \(profile.accountID): \(profile.displayName.map(TerminalText.name) ?? "-")"] + profile.fields.sorted { $0.key < $1.key }.map { field in
                    let seenBy = profile.visibility?[field.key].map { "\t(\(Self.audience($0)))" } ?? ""
                    return "  \(TerminalText.name(field.key)): \(TerminalText.name(field.value))\(seenBy)"
                }
                    + (trust.map { ["  trust: \($0.label)"] } ?? []))
                    .joined(separator: "\n")
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change your display name or fields.",
            discussion: "Fields: --field NAME=VALUE[:everyone|contacts|nobody] for username, email (your account's own address: who may see it), phone, location; an empty VALUE removes it.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Your display name.") var name: String?
        @Option(help: ArgumentHelp("NAME=VALUE[:VISIBILITY] (repeat).", valueName: "field")) var field: [String] = []
        @Option(help: ArgumentHelp("Your picture (JPEG or PNG), encrypted for your contacts.", valueName: "path")) var avatar: String?

        func run() async throws {
            var fields: [String: (value: String, visibility: FieldVisibility)] = [:]
            for item in field {
                // Refused here in the command's words (a ValidationError this late printed the top-level usage).
                guard let equals = item.firstIndex(of: "=") else { throw CommandFailure("--field \(item): expected NAME=VALUE[:VISIBILITY]") }
                let name = String(item[..<equals])
                guard Profiles.fieldNames.contains(name) else {
                    throw CommandFailure("--field \(name): not a profile field; the fields are \(Profiles.fieldNames.sorted().joined(separator: ", "))")
                }
                var value = String(item[item.index(after: equals)...])
                var visibility = FieldVisibility.contacts
                if let colon = value.lastIndex(of: ":"), let parsed = FieldVisibility(rawValue: String(value[value.index(after: colon)...])) {
                    visibility = parsed
                    value = String(value[..<colon])
                }
                guard value.utf8.count <= 256 else { throw CommandFailure("--field \(name): at most 256 bytes") }
                fields[name] = (value, visibility)
            }
            guard name != nil || !fields.isEmpty || avatar != nil else { throw ValidationError("give --name, --field and/or --avatar") }
            try await options.withClient { client in
                if name != nil || !fields.isEmpty { try await client.profiles.update(displayName: name, fields: fields) }
                if let avatar { try await client.avatars.set(image: URL(fileURLWithPath: (avatar as NSString).expandingTildeInPath)) }
            }
            options.output(["updated": true]) { "Profile updated." }
        }
    }
}

extension Parley.ProfileCommand {
    /// `parley profile avatar`.
    struct Avatar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "avatar",
            abstract: "Write someone's picture (or yours) as JPEG: fetched once, checked against the digest they sent, cached encrypted.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "An account id (default: yours).") var account: Int64?
        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the JPEG.", valueName: "path")) var output: String

        func run() async throws {
            let picture = try await options.withClient { client -> [UInt8]? in
                let id: Int64
                if let account { id = account } else { id = await client.accountID ?? 0 }
                return try await client.avatars.of(id)
            }
            guard let picture else { throw CommandFailure("no picture known for this account (it arrives with a message from them)") }
            do {
                try Data(picture).write(to: URL(fileURLWithPath: (output as NSString).expandingTildeInPath), options: .atomic)
            } catch {
                throw CommandFailure("cannot write \(output)")
            }
            options.output(["bytes": picture.count]) { "Wrote the picture (\(picture.count) bytes, JPEG) to \(output)." }
        }
    }
}
