import ParleyWire

/// Who may see a profile field: any logged-in user, contacts (docs/API.md §5.1), or the owner only.
public typealias Visibility = API.Visibility

/// One profile field with its visibility.
public struct ProfileField: Sendable, Equatable {
    public var name: String
    public var value: String
    public var visibility: Visibility
}

/// Whose avatar a blob is.
public enum AvatarOwner: Sendable, Equatable {
    case account(Int64)
    case group(Int64)
}

/// Profile fields and client-encrypted avatars.
public protocol ProfileStore: Sendable {
    /// Every profile field of an account.
    func profileFields(accountID: Int64) async throws -> [ProfileField]

    /// Sets (or, with an empty value, removes) profile fields.
    func setProfileFields(accountID: Int64, _ fields: [ProfileField]) async throws

    /// Changes the display name.
    func setDisplayName(accountID: Int64, _ name: String) async throws

    /// Replaces an avatar blob; a group's only while the group is not deleted (otherwise nothing is stored).
    func setAvatar(_ owner: AvatarOwner, blob: [UInt8], now: Int64) async throws

    /// An avatar blob and when it was set.
    func avatar(_ owner: AvatarOwner) async throws -> (blob: [UInt8], updatedAt: Int64)?
}
