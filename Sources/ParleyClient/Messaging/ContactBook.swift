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
    ///
    /// An e-mail that another contact had means the address now belongs to this account (the other was deleted, or
    /// the server says so): the other is marked replaced, and a note (`replaced_account`) tells `Trust` to treat
    /// this account's key as that contact's changed key, in the same transaction.
    func remember(_ contact: Contact) throws(ClientError) {
        var merged = try self.contact(contact.accountID) ?? contact
        merged.email = contact.email ?? merged.email
        merged.displayName = contact.displayName ?? merged.displayName
        let email = merged.email?.lowercased()
        let previous = email == nil ? [] : try all().filter {
            $0.accountID != contact.accountID && $0.email?.lowercased() == email && $0.replacedBy != contact.accountID
        }
        if previous.contains(where: { $0.accountID == merged.replacedBy }) { merged.replacedBy = nil }
        let bytes = Array(try! JSONEncoder().encode(merged))
        try dependencies.database.write { writer in
            try writer.put(Namespace.contact, String(contact.accountID), bytes)
            for var other in previous {
                other.replacedBy = contact.accountID
                try writer.put(Namespace.contact, String(other.accountID), Array(try! JSONEncoder().encode(other)))
                try writer.put(Namespace.replacedAccount, "\(contact.accountID)/\(other.accountID)", [])
            }
        }
    }

    /// What to say when `email`, which a deleted contact had, has no account now.
    static func deletedAccount(_ email: String) -> String {
        "\(email) deleted their Parley account; there is no one to send to at that address now"
    }

    /// Whether a contact who had `email` is known to have deleted their account.
    func deletedAccountHad(_ email: String) throws(ClientError) -> Bool {
        try all().contains { $0.email?.lowercased() == email.lowercased() && $0.deleted == true }
    }

    /// Notes that `accountID`'s account was deleted at the server.
    func markDeleted(_ accountID: Int64) throws(ClientError) {
        guard var contact = try contact(accountID), contact.deleted != true else { return }
        contact.deleted = true
        let bytes = Array(try! JSONEncoder().encode(contact))
        try dependencies.database.write { try $0.put(Namespace.contact, String(accountID), bytes) }
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

    /// How an entry in a conversation names someone: as their messages are signed (the display name), with the
    /// e-mail beside it when this device knows it, which no one else can have — "Bob (bob@example.org)".
    public func label(_ accountID: Int64) throws(ClientError) -> String {
        let contact = try contact(accountID)
        switch (contact?.displayName.flatMap { $0.isEmpty ? nil : $0 }, contact?.email) {
        case (let name?, let email?): return "\(name) (\(email))"
        case (let name?, nil): return name
        case (nil, let email?): return email
        case (nil, nil): return "account \(accountID)"
        }
    }
}

extension Namespace {
    /// `NEW/OLD`: account NEW now has the e-mail contact OLD had; `Trust.noticeReplacedAccounts` acts on it once.
    static let replacedAccount = "replaced_account"
}
