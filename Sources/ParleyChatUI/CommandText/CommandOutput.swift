import ParleyClient

/// A conversation as `conversations` lists it: its fields plus, for a direct one, the contact's trust status.
public struct ConversationRow: Encodable, Sendable {
    /// The conversation.
    public let conversation: Conversation
    /// The other person's trust status, for a direct conversation.
    public let trust: TrustStatus?
    /// How the list names it: the other person of a direct conversation, a group's title.
    public let name: String

    /// A row for `conversation`, named `name`.
    public init(conversation: Conversation, trust: TrustStatus?, name: String) {
        self.conversation = conversation
        self.trust = trust
        self.name = name
    }

    private enum Keys: String, CodingKey { case trust, name }

    /// The conversation's own fields, then `trust` and `name`.
    public func encode(to encoder: any Encoder) throws {
        try conversation.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(trust, forKey: .trust)
        try container.encode(name, forKey: .name)
    }
}

/// `profile show --json`: the profile's fields plus, for someone else, the trust status of their key.
public struct ProfileOutput: Encodable, Sendable {
    /// The profile.
    public let profile: Profile
    /// Their key's trust status, for someone else.
    public let trust: String?

    /// The output for `profile`, with `trust` when it is someone else's.
    public init(profile: Profile, trust: String?) {
        self.profile = profile
        self.trust = trust
    }

    private enum Keys: String, CodingKey { case trust }

    /// The profile's own fields, then `trust` when known.
    public func encode(to encoder: any Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(trust, forKey: .trust)
    }
}
