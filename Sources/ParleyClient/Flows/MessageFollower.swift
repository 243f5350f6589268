import Foundation

/// `read --follow`: messages as they arrive, each marked shown and read, until the account itself ends.
public struct MessageFollower: Sendable {
    /// The open account.
    public let client: ParleyClient
    /// Only this conversation's messages; nil for all.
    public let conversation: Int64?
    private let events: AsyncStream<ClientEvent>

    /// Follows `conversation` (or everything) through `client`. Subscribes at once: make it before connecting,
    /// so nothing that arrives while connecting is missed.
    public init(client: ParleyClient, conversation: Int64?) {
        self.client = client
        self.conversation = conversation
        events = client.events()
    }

    /// After the server was out of reach: fetches, and returns what arrived meanwhile and was not shown.
    public func catchUp() async throws(ClientError) -> [Message] {
        _ = try await client.sync()
        return try client.inbox.takeUnseen(in: conversation)
    }

    /// Hands each arriving message to `show`, then marks it shown and read. Ends when the events end; throws
    /// when the account was disabled or deleted, after disconnecting.
    public func follow(_ show: (Message) async -> Void) async throws(FollowEnd) {
        let own = await client.accountID
        for await event in events {
            if let end = Self.end(for: event, own: own) {
                await client.disconnect()
                throw end
            }
            guard case .message(let message) = event, conversation == nil || message.conversationID == conversation else { continue }
            await show(message)
            try? client.inbox.markSeen([message.id])
            await client.inbox.markRead([message])
        }
    }

    /// Why following must end at `event`, for the account `own` (docs/OPERATIONS.md §8); nil to go on.
    public static func end(for event: ClientEvent, own: Int64?) -> FollowEnd? {
        switch event {
        case .server(.accountDisabled): .accountDisabled
        case .server(.accountDeleted(let deleted)) where deleted.accountID == own: .accountDeleted
        default: nil
        }
    }
}

/// Why following ended: the account itself went.
public enum FollowEnd: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server's operator disabled the account.
    case accountDisabled
    /// The account was deleted (from another device).
    case accountDeleted

    /// What happened and what to do, in the user's words.
    public var description: String {
        switch self {
        case .accountDisabled: "this account is disabled; ask the server's operator"
        case .accountDeleted: "this account was deleted; 'parley account logout --yes' erases this device's copy"
        }
    }
}
