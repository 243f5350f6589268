import ArgumentParser
import Foundation
import ParleyClient
import ParleyLocation
import ParleyLocationFeeds
import ParleyTerminal

extension Parley.Location {
    /// `parley location bpt-key`: this account's Berry Picker Tracker identity, kept in the vault.
    struct BPTKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bpt-key",
            abstract: "This account's Berry Picker Tracker key, so users of the tracker app can follow you.",
            discussion: """
                create registers a user on a tracker server and keeps a new key for it in the account's vault \
                (never in a file); bpt-link prints the link a tracker app user opens; post and replay with --bpt \
                send positions sealed with it. show describes it without the key, rotate replaces key and user \
                (old links stop working, the old user is deleted at the server), delete removes both.
                """,
            subcommands: [Create.self, Show.self, Rotate.self, Delete.self])
    }
}

extension Parley.Location.BPTKey {
    /// `parley location bpt-key create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Register a user on a Berry Picker Tracker server and keep a new key for it in the vault.")

        @Option(name: .customLong("bpt-server"), help: ArgumentHelp("The tracker server's base URL (http:// or https://).", valueName: "url"))
        var server: String

        @Option(help: "The name tracker app users see for you (put in the link).")
        var name: String?

        @OptionGroup var timeout: BPTTimeoutOption
        @OptionGroup var options: ClientOptions

        func validate() throws {
            // Checked here, not after the server made the user: a refused name must leave nothing behind there.
            if let name, name.isEmpty || name.utf8.count > 256 { throw ValidationError("--name must be 1…256 bytes") }
        }

        func run() async throws {
            let tracker = try BPTClient(server: server, timeout: timeout.seconds)
            let client = try options.open()
            // Asked before the server, so a second create makes no stray user there.
            if (try? client.tracker.ownKey()) ?? nil != nil {
                throw CommandFailure("this account already has a tracker key; see it with 'parley location bpt-key show', replace it with 'bpt-key rotate'")
            }
            let own = try await BPTKeyFlows.create(on: tracker) { userID in
                do {
                    return try client.tracker.makeKey(userID: userID, server: tracker.base.absoluteString, name: name, replacing: nil)
                } catch {
                    throw CommandFailure("\(error)")
                }
            }
            options.output(BPTKeyDescription(own)) {
                "Made a Berry Picker Tracker key for user \(own.userID) on \(own.server), kept in the vault.\n"
                    + "Give a tracker app user the link from 'parley location bpt-link'; post with 'parley location post --bpt'."
            }
        }
    }

    /// `parley location bpt-key show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Describe this account's tracker key: server, user id, name, route (never the key itself).")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            let own = try options.bptOwnKey(try options.open())
            options.output(BPTKeyDescription(own)) { BPTKeyDescription(own).text }
        }
    }

    /// `parley location bpt-key rotate`.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Replace the tracker key and user: links given out so far stop working.",
            discussion: """
                A new user is registered on the same server with a new key; then the old user, with its routes, \
                is deleted there, so holders of an old link see nothing more. Hand out the new link afterwards.
                """)

        @OptionGroup var timeout: BPTTimeoutOption
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let client = try options.open()
            let old = try options.bptOwnKey(client)
            let tracker = try BPTClient(server: old.server, timeout: timeout.seconds)
            let (own, oldDeleted) = try await BPTKeyFlows.rotate(on: tracker, replacing: old.userID, keep: { userID in
                do {
                    return try client.tracker.makeKey(userID: userID, server: old.server, name: old.name, replacing: old.userID)
                } catch {
                    throw CommandFailure("\(error)")
                }
            }, note: ProgressLine.write)
            options.output(["user_id": own.userID, "old_user_id": old.userID, "old_user_deleted": oldDeleted ? "true" : "false"]) {
                "New tracker key for user \(own.userID) on \(own.server); old links no longer work. Share the new one from 'parley location bpt-link'."
            }
        }
    }

    /// `parley location bpt-key delete`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the tracker user (and its routes) at the server, then forget the key.")

        @Flag(name: .customLong("local-only"), help: "Only forget the key here; the user and its routes stay on the tracker server.")
        var localOnly = false

        @OptionGroup var timeout: BPTTimeoutOption
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let client = try options.open()
            let own = try options.bptOwnKey(client)
            // --local-only never needs the tracker, so a stored address that no longer parses cannot stop it.
            let tracker = localOnly ? nil : try BPTClient(server: own.server, timeout: timeout.seconds)
            try await BPTKeyFlows.delete(on: tracker, userID: own.userID, localOnly: localOnly) {
                do { try client.tracker.forgetKey() } catch { throw CommandFailure("\(error)") }
            }
            options.output(["user_id": own.userID, "deleted_at_server": localOnly ? "false" : "true"]) {
                localOnly ? "Forgot the tracker key of user \(own.userID); the user and its routes remain on \(own.server)."
                    : "Deleted tracker user \(own.userID) and its routes on \(own.server), and forgot its key."
            }
        }
    }
}

/// What `show` and `--json` tell about a tracker identity: everything but the key.
struct BPTKeyDescription: Encodable {
    let server: String
    let userId: String
    let name: String?
    let routeId: String?
    let keyBits: Int
    let created: String

    init(_ own: BPTOwnKey) {
        server = own.server
        userId = own.userID
        name = own.name
        routeId = own.routeID
        keyBits = own.key.byteCount * 8
        created = ISO8601Time.format(own.created)
    }

    var text: String {
        """
        server:  \(server)
        user id: \(userId)
        name:    \(name ?? "(none)")
        route:   \(routeId ?? "(none yet: the next post --bpt starts one)")
        key:     AES-\(keyBits), made \(created), kept in the vault; only 'parley location bpt-link' prints it, inside the link
        """
    }
}
