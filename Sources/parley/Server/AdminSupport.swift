import Foundation
import ParleyServer

extension Parley.Server.Admin.DatabaseOptions {
    /// The account `text` names: its number or its e-mail address.
    func account(_ text: String, in store: any Store) async throws -> AccountRecord {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let found = if let id = Int64(trimmed) { try await store.account(id: id) } else { try await store.account(email: trimmed.lowercased()) }
        guard let found else {
            throw CommandFailure("there is no account \(trimmed.prefix(254)) on this server ('parley server admin accounts list')")
        }
        return found
    }

    /// Hands `events` to the running server(s); a server that cannot be told is reported, not fatal:
    /// the database already holds the change.
    func tell(_ events: [ClusterEvent], store: any Store) async -> RunningServers.Reach? {
        do {
            return try await RunningServers.tell(events, store: store, dataDirectory: URL(fileURLWithPath: data, isDirectory: true))
        } catch {
            Console.err("parley: the change is saved, but the running server could not be told (\(error)); restart it to be sure")
            return nil
        }
    }
}

/// How the admin commands show what they found.
enum AdminText {
    static func date(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "never" }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(date: .abbreviated, time: .shortened)
    }

    static func state(_ account: AccountSummary) -> String {
        account.disabledAt != nil ? "disabled" : account.isActive ? "active" : "pending"
    }

    static func bytes(_ count: Int64) -> String {
        guard count >= 1_024 else { return "\(count) byte\(count == 1 ? "" : "s")" }
        var value = Double(count) / 1_024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1_024 { return "\(String(format: "%.1f", value)) \(unit)" }
            value /= 1_024
        }
        return String(format: "%.1f TiB", value)
    }

    /// What closing connections came to, in a sentence.
    static func closed(_ reach: RunningServers.Reach?) -> String {
        switch reach {
        case .reached(let nodes, _, _)?: nodes > 1 ? "its connections on all \(nodes) server nodes were closed" : "its connections to the running server were closed"
        case .notRunning?: "no server is running, so it has no connections"
        case nil: "its connections could not be closed"
        }
    }

    /// A JSON object line from simple values.
    static func json(_ object: [String: Any?]) -> String {
        let present = object.compactMapValues { $0 }
        let data = (try? JSONSerialization.data(withJSONObject: present, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
