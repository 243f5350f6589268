import ParleyClient

/// A contact as `contacts` lists it.
public struct ContactRow: Encodable, Sendable, Equatable {
    /// Their account.
    public let accountID: Int64
    /// Their e-mail, when known.
    public let email: String?
    /// Their display name, when known.
    public let name: String?
    /// The short fingerprint of their identity key; nil before any session with them.
    public let identityFingerprint: String?
    /// `unverified`, `trusted` or `verified` (docs/CLIENT.md §9).
    public let trust: String
    /// The account that has their e-mail now, when this one was deleted or replaced.
    public let replacedBy: Int64?
    /// Whether the server said their account was deleted.
    public let accountDeleted: Bool
}

/// The people this device has talked to, with their fingerprints and trust status.
public enum ContactList {
    /// Every contact but the account itself (it is learnt like anyone when you write to your own address); a trust
    /// status this device cannot read counts as unverified.
    public static func rows(_ client: ParleyClient) async throws(ClientError) -> [ContactRow] {
        var rows: [ContactRow] = []
        let me = await client.accountID
        for entry in try client.profiles.contacts() where entry.contact.accountID != me {
            let trust = ((try? client.trust.status(of: entry.contact.accountID)) ?? .unverified).rawValue
            rows.append(ContactRow(accountID: entry.contact.accountID, email: entry.contact.email, name: entry.contact.displayName,
                                   identityFingerprint: entry.identityKey.map(IdentityFingerprint.short), trust: trust,
                                   replacedBy: entry.contact.replacedBy, accountDeleted: entry.contact.deleted == true))
        }
        return rows
    }
}
