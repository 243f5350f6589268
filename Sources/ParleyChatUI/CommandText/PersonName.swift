import ParleyClient
import ParleyTerminal

/// How the command line names a person, the same way in every command (issue 21 item 5): their display
/// name; with their e-mail when another contact has the same name; their e-mail when no name is known yet;
/// "someone (account N)" when neither is.
public enum PersonName {
    /// The name of `account` as this device knows it.
    public static func of(_ account: Int64, client: ParleyClient) async -> String {
        let contacts = ((try? client.profiles.contacts()) ?? []).map(\.contact)
        return label(account, contacts: contacts)
    }

    /// The same, from a list of contacts already read.
    public static func label(_ account: Int64, contacts: [Contact]) -> String {
        guard let contact = contacts.first(where: { $0.accountID == account }) else { return "someone (account \(account))" }
        // Shown with what could hide in it, so a look-alike name does not pass for another.
        let name = contact.displayName.flatMap { $0.isEmpty ? nil : TerminalText.name($0) }
        // Another person known by the same name: told apart by e-mail, or by account where the e-mail is not known
        // (a group's members' often is not), so a newcomer named "Bob" does not pass for the Bob one knows.
        let shared = name.map { name in contacts.contains { $0.accountID != account && $0.displayName.map(TerminalText.name) == name } } ?? false
        switch (name, contact.email) {
        case (let name?, let email?): return shared ? "\(name) (\(email))" : name
        case (let name?, nil): return shared ? "\(name) (account \(account))" : name
        case (nil, let email?): return email
        case (nil, nil): return "someone (account \(account))"
        }
    }
}

extension PersonName {
    /// The name of `account`; when this device knows no display name for them yet, their profile is asked of
    /// the server first (best effort: offline, the name this device has is used).
    public static func learning(_ account: Int64, client: ParleyClient) async -> String {
        if (try? client.contacts.contact(account))??.displayName == nil { _ = try? await client.contacts.learnProfile(account) }
        return await of(account, client: client)
    }
}
