import ParleyClient
import ParleyTerminal

/// A group's member as `group members` lists them.
public struct MemberRow: Encodable, Sendable, Equatable {
    /// Their account.
    public let accountID: Int64
    /// Their e-mail, when this device knows it (they invited with it, or their profile shows it).
    public let email: String?
    /// Their display name, when known (remote text: shown through `TerminalText`).
    public let name: String?
    /// Whether they created the group (only the creator renames it and removes members).
    public let creator: Bool
    /// Whether this is the account itself.
    public let you: Bool
    /// `unverified`, `trusted` or `verified` (docs/CLIENT.md §9); nil for the account itself.
    public let trust: String?

    /// How the chat names the member in one line: "you", else the name (or e-mail, or account), "(creator)" after it.
    public var shortLabel: String {
        let who = you ? "you" : name.map(TerminalText.name) ?? email.map { TerminalText.visible($0, singleLine: true) } ?? "account \(accountID)"
        return creator ? "\(who) (creator)" : who
    }

    /// The row as a line: name, e-mail (else the account, so two members of one name are told apart), then
    /// "creator", "you" and the trust status where they apply.
    public var line: String {
        var columns = [name.map(TerminalText.name) ?? "-", email.map { TerminalText.visible($0, singleLine: true) } ?? "account \(accountID)"]
        if creator { columns.append("creator") }
        if you { columns.append("you") } else if let trust { columns.append(trust) }
        return columns.joined(separator: "\t")
    }
}

/// Who is in a group, read from the server.
public enum MemberList {
    /// The group and its active members: the creator first, then in the order the server lists them. A member
    /// whose name this device does not know yet is asked of the server (best effort: without an answer the row
    /// shows what is known).
    public static func of(_ groupID: Int64, client: ParleyClient) async throws(ClientError) -> (group: Conversation, members: [MemberRow]) {
        let group = try await client.groups.group(groupID)
        let me = await client.accountID
        var rows: [MemberRow] = []
        for account in [group.creatorID] + group.members.filter({ $0 != group.creatorID }) where group.members.contains(account) {
            var contact = try client.contacts.contact(account)
            if account == me {
                contact = Contact(accountID: account, email: client.email, displayName: await client.displayName)
            } else if contact?.displayName == nil {
                contact = (try? await client.contacts.learnProfile(account)) ?? contact
            }
            let trust = account == me ? nil : ((try? client.trust.status(of: account)) ?? .unverified).rawValue
            rows.append(MemberRow(accountID: account, email: contact?.email, name: contact?.displayName.flatMap { $0.isEmpty ? nil : $0 },
                                  creator: account == group.creatorID, you: account == me, trust: trust))
        }
        return (group, rows)
    }
}
