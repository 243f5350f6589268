import ParleyCrypto

/// A group message under a sender key (docs/PROTOCOL.md §6.3).
///
/// `0x01 || 0x03 || chainId(32) || iteration(u32) || ciphertext+tag || signature(64)`.
public struct GroupMessage: Sendable, Equatable {
    /// Ed25519 signature size.
    public static let signatureSize = 64
    /// Largest encoded size.
    public static let maxSize = 2 + 32 + 4 + ProtocolConstants.maxCiphertextSize + signatureSize

    /// The sender chain's id.
    public let chainId: [UInt8]
    /// The chain iteration whose key encrypted this message.
    public let iteration: UInt32
    /// AES-256-GCM ciphertext followed by its tag.
    public let ciphertext: [UInt8]
    /// Ed25519 signature over every byte before it.
    public let signature: [UInt8]

    /// Assembles a message from its parts.
    public init(chainId: [UInt8], iteration: UInt32, ciphertext: [UInt8], signature: [UInt8]) {
        self.chainId = chainId
        self.iteration = iteration
        self.ciphertext = ciphertext
        self.signature = signature
    }

    /// The bytes the signature covers.
    public var signedBytes: [UInt8] {
        Self.signedBytes(chainId: chainId, iteration: iteration, ciphertext: ciphertext)
    }

    /// The bytes a signature covers, before the signature exists.
    static func signedBytes(chainId: [UInt8], iteration: UInt32, ciphertext: [UInt8]) -> [UInt8] {
        var out = WirePrefix.bytes(.groupMessage)
        out.reserveCapacity(2 + 32 + 4 + ciphertext.count + signatureSize)
        out.append(contentsOf: chainId)
        out.appendBigEndian(iteration)
        out.append(contentsOf: ciphertext)
        return out
    }

    /// The encoded bytes.
    public var serialized: [UInt8] { signedBytes + signature }

    /// Parses an encoded group message, refusing anything malformed.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var reader = try WirePrefix.open(bytes, type: .groupMessage, maxSize: Self.maxSize)
        chainId = try reader.field(32)
        iteration = try reader.u32()
        let rest = reader.readRest()
        guard rest.count >= ProtocolConstants.minCiphertextSize + Self.signatureSize else { throw .truncated }
        ciphertext = Array(rest[..<(rest.count - Self.signatureSize)])
        signature = Array(rest[(rest.count - Self.signatureSize)...])
    }
}
