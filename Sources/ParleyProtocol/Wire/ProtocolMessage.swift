/// Any Parley protocol message, decoded by its type byte.
public enum ProtocolMessage: Sendable, Equatable {
    /// A Double Ratchet message.
    case message(RatchetMessage)
    /// A session-opening message.
    case preKeyMessage(PreKeyMessage)
    /// A group message.
    case groupMessage(GroupMessage)
    /// A sender-key distribution message.
    case senderKeyDistribution(SenderKeyDistributionMessage)

    /// Decodes `bytes`, dispatching on the type byte.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        // Same precedence as every decoder: version, then type, then lengths (docs/PROTOCOL.md §6).
        guard let version = bytes.first else { throw .truncated }
        guard version == ProtocolConstants.version else { throw .unsupportedVersion(version) }
        guard bytes.count >= 2 else { throw .truncated }
        switch MessageType(rawValue: bytes[1]) {
        case .message: self = .message(try RatchetMessage(serialized: bytes))
        case .preKeyMessage: self = .preKeyMessage(try PreKeyMessage(serialized: bytes))
        case .groupMessage: self = .groupMessage(try GroupMessage(serialized: bytes))
        case .senderKeyDistribution:
            self = .senderKeyDistribution(try SenderKeyDistributionMessage(serialized: bytes))
        case nil: throw .unexpectedType(bytes[1])
        }
    }

    /// The encoded bytes.
    public var serialized: [UInt8] {
        switch self {
        case .message(let m): m.serialized
        case .preKeyMessage(let m): m.serialized
        case .groupMessage(let m): m.serialized
        case .senderKeyDistribution(let m): m.serialized
        }
    }
}
