import ParleyCrypto

/// The Double Ratchet header: dhPublic(32) || pn(u32 BE) || n(u32 BE).
public struct MessageHeader: Sendable, Equatable {
    /// Encoded size in bytes.
    public static let size = 40

    /// The sender's current ratchet public key.
    public let ratchetKey: [UInt8]
    /// Length of the sender's previous sending chain.
    public let previousCounter: UInt32
    /// This message's number in the current sending chain.
    public let counter: UInt32

    /// Creates a header.
    public init(ratchetKey: [UInt8], previousCounter: UInt32, counter: UInt32) {
        self.ratchetKey = ratchetKey
        self.previousCounter = previousCounter
        self.counter = counter
    }

    /// The 40 header bytes.
    public var serialized: [UInt8] {
        var out = ratchetKey
        out.reserveCapacity(Self.size)
        out.appendBigEndian(previousCounter)
        out.appendBigEndian(counter)
        return out
    }

    /// Reads a header from `reader`.
    init(reading reader: inout ByteReader) throws(ProtocolError) {
        ratchetKey = try reader.field(32)
        previousCounter = try reader.u32()
        counter = try reader.u32()
    }
}
