import ParleyCrypto

/// A Double Ratchet message: `0x01 || 0x01 || header(40) || ciphertext+tag`.
public struct RatchetMessage: Sendable, Equatable {
    /// Largest encoded size.
    public static let maxSize = 2 + MessageHeader.size + ProtocolConstants.maxCiphertextSize

    /// The ratchet header.
    public let header: MessageHeader
    /// AES-256-GCM ciphertext followed by its tag.
    public let ciphertext: [UInt8]
    /// The encoded bytes.
    public let serialized: [UInt8]

    /// Assembles a message from its parts.
    public init(header: MessageHeader, ciphertext: [UInt8]) {
        self.header = header
        self.ciphertext = ciphertext
        var out = WirePrefix.bytes(.message)
        out.reserveCapacity(2 + MessageHeader.size + ciphertext.count)
        out.append(contentsOf: header.serialized)
        out.append(contentsOf: ciphertext)
        self.serialized = out
    }

    /// Parses an encoded message, refusing anything malformed.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var reader = try WirePrefix.open(bytes, type: .message, maxSize: Self.maxSize)
        header = try MessageHeader(reading: &reader)
        let rest = reader.readRest()
        guard rest.count >= ProtocolConstants.minCiphertextSize else { throw .truncated }
        ciphertext = rest
        serialized = bytes
    }
}
