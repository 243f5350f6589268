/// The source a forwarded message names.
public struct ForwardSource: Codable, Sendable, Equatable {
    /// The original sender.
    public let senderID: Int64
    /// The original server timestamp.
    public let timestamp: Int64

    /// A source: who sent the original and when.
    public init(senderID: Int64, timestamp: Int64) {
        self.senderID = senderID
        self.timestamp = timestamp
    }
}
