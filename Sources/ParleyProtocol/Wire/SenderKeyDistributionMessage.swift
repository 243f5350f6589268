import ParleyCrypto

/// A sender key handed to another member (docs/PROTOCOL.md §6.4), exactly 102 bytes.
///
/// `0x01 || 0x04 || chainId(32) || iteration(u32) || chainKey(32) || signingPublic(32)`.
public struct SenderKeyDistributionMessage: Sendable, Equatable {
    /// Encoded size.
    public static let size = 102

    /// The chain's id.
    public let chainId: [UInt8]
    /// The iteration `chainKey` belongs to.
    public let iteration: UInt32
    /// The chain key at `iteration`.
    public let chainKey: [UInt8]
    /// The chain's Ed25519 signing public key.
    public let signingPublic: [UInt8]

    /// Assembles a distribution message.
    public init(chainId: [UInt8], iteration: UInt32, chainKey: [UInt8], signingPublic: [UInt8]) {
        self.chainId = chainId
        self.iteration = iteration
        self.chainKey = chainKey
        self.signingPublic = signingPublic
    }

    /// The encoded bytes.
    public var serialized: [UInt8] {
        var out = WirePrefix.bytes(.senderKeyDistribution)
        out.reserveCapacity(Self.size)
        out.append(contentsOf: chainId)
        out.appendBigEndian(iteration)
        out.append(contentsOf: chainKey)
        out.append(contentsOf: signingPublic)
        return out
    }

    /// Parses an encoded distribution message, refusing anything malformed.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var reader = try WirePrefix.open(bytes, type: .senderKeyDistribution, maxSize: Self.size)
        chainId = try reader.field(32)
        iteration = try reader.u32()
        chainKey = try reader.field(32)
        signingPublic = try reader.field(32)
        try reader.finish()
    }
}
