import Foundation
import ParleyWire

/// The people this device knows (namespace `contact`): their account id, e-mail and display name, merged as they
/// are learned from conversations, requests and profiles. Identity keys and trust are not here (the sessions'
/// store and `Trust` keep them).
public struct ContactBook: Sendable {
    typealias Dependencies = HasServer & HasDatabase & Sendable
    let dependencies: any Dependencies

    /// Someone this device knows.
    public func contact(_ accountID: Int64) throws(ClientError) -> Contact? {
        try dependencies.database.read { try $0.get(Namespace.contact, String(accountID)) }
            .flatMap { try? JSONDecoder().decode(Contact.self, from: Data($0)) }
    }

    /// Every contact, in no particular order.
    public func all() throws(ClientError) -> [Contact] {
        try dependencies.database.read { try $0.all(Namespace.contact) }
            .compactMap { try? JSONDecoder().decode(Contact.self, from: Data($0.value)) }
    }

    /// Merges what is newly known of someone into what was known (a nil field keeps the old value).
    func remember(_ contact: Contact) throws(ClientError) {
        var merged = try self.contact(contact.accountID) ?? contact
        merged.email = contact.email ?? merged.email
        merged.displayName = contact.displayName ?? merged.displayName
        let bytes = Array(try! JSONEncoder().encode(merged))
        try dependencies.database.write { try $0.put(Namespace.contact, String(contact.accountID), bytes) }
    }

    /// Reads someone's profile (name, and e-mail when they show it) and remembers it.
    @discardableResult
    public func learnProfile(_ accountID: Int64) async throws(ClientError) -> Contact {
        let profile = try await dependencies.server.call(API.GetProfile.self, .init(accountID: accountID))
        let email = profile.shown["email"] ?? profile.own["email"]?.value
        try remember(Contact(accountID: accountID, email: email, displayName: profile.displayName))
        return try contact(accountID) ?? Contact(accountID: accountID, email: email, displayName: nil)
    }

    /// How the user knows a contact, for messages and errors: e-mail, else name, else the account id.
    public func name(_ accountID: Int64) throws(ClientError) -> String {
        let contact = try contact(accountID)
        return contact?.email ?? contact?.displayName ?? "account \(accountID)"
    }
}
