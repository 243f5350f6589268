import Foundation

/// How the admin commands show what they found.
public enum AdminText {
    /// A time in milliseconds for the operator, or "never".
    public static func date(_ milliseconds: Int64?) -> String {
        guard let milliseconds else { return "never" }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(date: .abbreviated, time: .shortened)
    }

    /// disabled, active or pending (registration not confirmed).
    public static func state(_ account: AccountSummary) -> String {
        account.disabledAt != nil ? "disabled" : account.isActive ? "active" : "pending"
    }

    /// A byte count: `1 byte`, `12.5 KiB` … `TiB`.
    public static func bytes(_ count: Int64) -> String {
        guard count >= 1_024 else { return "\(count) byte\(count == 1 ? "" : "s")" }
        var value = Double(count) / 1_024
        for unit in ["KiB", "MiB", "GiB"] {
            if value < 1_024 { return "\(String(format: "%.1f", value)) \(unit)" }
            value /= 1_024
        }
        return String(format: "%.1f TiB", value)
    }

    /// What closing connections came to, in a sentence.
    public static func closed(_ reach: RunningServers.Reach?) -> String {
        switch reach {
        case .reached(let nodes, _, _)?: nodes > 1 ? "its connections on all \(nodes) server nodes were closed" : "its connections to the running server were closed"
        case .notRunning?: "no server is running, so it has no connections"
        case nil: "its connections could not be closed"
        }
    }

    /// A JSON object line from simple values.
    public static func json(_ object: [String: Any?]) -> String {
        let present = object.compactMapValues { $0 }
        let data = (try? JSONSerialization.data(withJSONObject: present, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// How `invites list` shows an invite.
public enum InviteListing {
    /// revoked, expired, used up or usable, at `now` (milliseconds).
    public static func state(_ invite: InviteRecord, now: Int64) -> String {
        if invite.revokedAt != nil { return "revoked" }
        if invite.expiresAt <= now { return "expired" }
        if invite.usesLeft <= 0 { return "used up" }
        return "usable"
    }

    /// An expiry time for the operator.
    public static func date(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(date: .abbreviated, time: .shortened)
    }
}
