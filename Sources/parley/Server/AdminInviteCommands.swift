import ArgumentParser
import Foundation
import ParleyCrypto
import ParleyServer
import ParleyTerminal

extension Parley.Server.Admin.Invites {
    /// `parley server admin invites create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Make an invite code; it is shown once, and the server keeps only its hash.")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Option(help: "How many accounts it may create (1–10000).") var uses = 1
        @Option(help: "Days it stays valid (1–365).") var days = 7
        @Option(help: "A note for you, shown by 'list' (who it is for).") var note = ""

        func validate() throws {
            guard (1...10_000).contains(uses) else { throw ValidationError("--uses must be 1–10000") }
            guard (1...365).contains(days) else { throw ValidationError("--days must be 1–365") }
            guard note.utf8.count <= 200, !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ValidationError("--note must be at most 200 bytes of text without control characters")
            }
        }

        func run() async throws {
            let code = InviteCode.make(SystemRandomSource())
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let invite = try await database.withStore { store in
                try await store.createInvite(
                    codeHash: InviteCode.hash(ofNormalised: InviteCode.normalised(code)!), note: note, uses: uses,
                    expiresAt: now + Int64(days) * 86_400_000, now: now)
            }
            if database.json {
                Console.json(#"{"code":"\#(code)","id":\#(invite.id),"uses":\#(uses),"expires_at":\#(invite.expiresAt)}"#)
            } else {
                Console.out("Invite \(invite.id): \(code)")
                Console.out("Valid for \(uses) account\(uses == 1 ? "" : "s") until \(InviteListing.date(invite.expiresAt)). Give it to them with:")
                Console.out("  parley account register --invite \(code) --email THEIR-EMAIL --name THEIR-NAME --server THIS-SERVER")
                Console.out("It is shown only now: the server keeps its hash.")
            }
        }
    }

    /// `parley server admin invites list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List invites: uses, expiry, state (the default).")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions

        func run() async throws {
            let invites = try await database.withStore { store in try await store.invites() }
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            if database.json {
                for invite in invites {
                    Console.json(#"{"id":\#(invite.id),"uses_left":\#(invite.usesLeft),"used":\#(invite.used),"expires_at":\#(invite.expiresAt),"state":"\#(InviteListing.state(invite, now: now))"}"#)
                }
                return
            }
            if invites.isEmpty { return Console.out("No invites yet: make one with 'parley server admin invites create'.") }
            for invite in invites {
                Console.out("\(invite.id)\t\(InviteListing.state(invite, now: now))\t\(invite.used) used, \(invite.usesLeft) left\tuntil \(InviteListing.date(invite.expiresAt))\t\(invite.note)")
            }
        }
    }

    /// `parley server admin invites revoke ID`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "Revoke an invite: it creates no more accounts (registrations not yet confirmed included).")
        @OptionGroup var database: Parley.Server.Admin.DatabaseOptions
        @Argument(help: "The invite's number (see 'list').") var id: Int64

        func run() async throws {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try await database.withAdmin { try await $0.revokeInvite(id, now: now) }
            Console.out("Revoked invite \(id).")
        }
    }
}
