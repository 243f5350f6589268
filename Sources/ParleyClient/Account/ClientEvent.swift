import ParleyWire

/// A notification from the server (docs/API.md §9), as `ClientEvent.server` carries it.
public typealias ServerEvent = ParleyWire.ServerEvent

/// What a client reports to its subscribers.
public enum ClientEvent: Sendable, Equatable {
    /// A message arrived and was decrypted (or marked undecryptable), or one of ours waiting in the outbox
    /// went out.
    case message(Message)
    /// A stored message changed: reaction, pin, delete, delivery.
    case messageUpdated(Message)
    /// The connection state changed.
    case connection(ConnectionStatus)
    /// Group membership, invitations, presence, key changes, reactions…: the server's notification, after the
    /// client acted on it (docs/API.md §9).
    case server(ServerEvent)
    /// This device was signed out (keys rotated elsewhere).
    case signedOut
    /// A contact's identity key changed: their status dropped to unverified and a warning entry was added
    /// to each conversation with them; `sendingBlocked` when they had been verified (docs/CLIENT.md §9).
    case identityKeyChanged(accountID: Int64, sendingBlocked: Bool)
    /// The user verified a contact or accepted their changed key.
    case trustChanged(accountID: Int64, status: TrustStatus)
    /// A group's title changed: its creator renamed it, or a member passed the creator's signed title on
    /// (docs/CLIENT.md §8.1). A rename by the creator also arrives as a `message` of kind `group_title`.
    case groupRenamed(conversationID: Int64, title: String)
}

/// Whether the client is talking to its server.
public enum ConnectionStatus: Sendable, Equatable {
    case connected
    case disconnected
    case reconnecting(attempt: Int, delaySeconds: Double)
}
