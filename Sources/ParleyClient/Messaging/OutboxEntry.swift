import Foundation
import ParleyClientFormats

/// A message accepted for sending and kept (sealed) until the server acknowledges it, so a crash, a
/// dropped connection or a server restart never loses it; the client message id makes resending safe.
struct OutboxEntry: Codable, Sendable {
    var conversationID: Int64
    var content: MessageContent
    /// `text`, `file`, … (server-visible).
    var kind: String
    /// For `forward_message`: the source message id.
    var forwardOf: Int64?
    var created: Int64
}

/// What `send` did.
public enum SendOutcome: Sendable, Equatable {
    /// The server stored it.
    case sent(Message)
    /// No connection: it waits in the outbox and goes out on the next connect.
    case queued(clientMessageID: String)

    /// The sent message, if it was sent.
    public var message: Message? {
        if case .sent(let message) = self { message } else { nil }
    }
}

/// Which devices hold our current sender-key chain for a group, so removed ones trigger a new chain.
struct GroupChainState: Codable {
    /// Devices (`account.device`) the chain was ever meant for.
    var members: Set<String>
    /// Devices that have received the chain's distribution message.
    var distributed: Set<String>
}
