import ParleyCrypto

/// A session-opening message (docs/PROTOCOL.md §6.2).
///
/// `0x01 || 0x02 || IK_A(32) || EK_A(32) || spkId || opkId || pqspkId || kemCiphertext(1088) || message`.
public struct PreKeyMessage: Sendable, Equatable {
    /// ML-KEM-768 ciphertext size.
    public static let kemCiphertextSize = 1088
    /// Bytes before the inner message.
    public static let prefixSize = 2 + 32 + 32 + 4 + 4 + 4 + kemCiphertextSize
    /// Largest encoded size.
    public static let maxSize = prefixSize + RatchetMessage.maxSize

    /// The initiator's Ed25519 identity key.
    public let identityKey: [UInt8]
    /// The initiator's ephemeral X25519 key (the session's base key).
    public let baseKey: [UInt8]
    /// Which signed prekey was used.
    public let signedPreKeyId: UInt32
    /// Which one-time prekey was used, or nil.
    public let oneTimePreKeyId: UInt32?
    /// Which post-quantum prekey was used.
    public let pqPreKeyId: UInt32
    /// The ML-KEM-768 ciphertext.
    public let kemCiphertext: [UInt8]
    /// The Double Ratchet message it carries.
    public let message: RatchetMessage

    /// Assembles a prekey message.
    public init(
        identityKey: [UInt8], baseKey: [UInt8], signedPreKeyId: UInt32, oneTimePreKeyId: UInt32?,
        pqPreKeyId: UInt32, kemCiphertext: [UInt8], message: RatchetMessage
    ) {
        self.identityKey = identityKey
        self.baseKey = baseKey
        self.signedPreKeyId = signedPreKeyId
        self.oneTimePreKeyId = oneTimePreKeyId
        self.pqPreKeyId = pqPreKeyId
        self.kemCiphertext = kemCiphertext
        self.message = message
    }

    /// The encoded bytes.
    public var serialized: [UInt8] {
        var out = WirePrefix.bytes(.preKeyMessage)
        out.reserveCapacity(Self.prefixSize + message.serialized.count)
        out.append(contentsOf: identityKey)
        out.append(contentsOf: baseKey)
        out.appendBigEndian(signedPreKeyId)
        out.appendBigEndian(oneTimePreKeyId ?? ProtocolConstants.noOneTimePreKey)
        out.appendBigEndian(pqPreKeyId)
        out.append(contentsOf: kemCiphertext)
        out.append(contentsOf: message.serialized)
        return out
    }

    /// Parses an encoded prekey message, refusing anything malformed.
    public init(serialized bytes: [UInt8]) throws(ProtocolError) {
        var reader = try WirePrefix.open(bytes, type: .preKeyMessage, maxSize: Self.maxSize)
        identityKey = try reader.field(32)
        baseKey = try reader.field(32)
        signedPreKeyId = try reader.u32()
        let opk = try reader.u32()
        oneTimePreKeyId = opk == ProtocolConstants.noOneTimePreKey ? nil : opk
        pqPreKeyId = try reader.u32()
        kemCiphertext = try reader.field(Self.kemCiphertextSize)
        message = try RatchetMessage(serialized: reader.readRest())
    }
}
