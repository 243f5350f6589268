import ParleyCrypto

/// Fixed numbers of Parley protocol version 1 (docs/PROTOCOL.md §2).
public enum ProtocolConstants {
    /// The version byte that opens every message and record.
    public static let version: UInt8 = 0x01
    /// Signature prefix for a signed prekey.
    public static let signedPreKeyPrefix: UInt8 = 0x05
    /// Signature prefix for the post-quantum prekey.
    public static let pqPreKeyPrefix: UInt8 = 0x0A
    /// The opkId value that means "no one-time prekey".
    public static let noOneTimePreKey: UInt32 = 0xFFFF_FFFF
    /// Most message keys one chain step may skip.
    public static let maxSkip: UInt32 = 256
    /// Most skipped message keys one state keeps; the oldest are evicted first.
    public static let maxStoredSkippedKeys = 2000
    /// Most archived session states per remote device.
    public static let maxArchivedStates = 40
    /// Most sender-key chains kept per group and sender.
    public static let maxSenderKeyStates = 5
    /// Largest padded plaintext.
    public static let maxPaddedSize = 1_048_576
    /// Largest plaintext that fits the largest padded size.
    public static let maxPlaintextSize = maxPaddedSize - MessagePadding.overhead
    /// AES-GCM tag length.
    public static let tagSize = 16
    /// Smallest ciphertext-with-tag a message may carry.
    public static let minCiphertextSize = MessagePadding.smallestBucket + tagSize
    /// Largest ciphertext-with-tag a message may carry.
    public static let maxCiphertextSize = maxPaddedSize + tagSize
    /// HKDF info for the PQXDH secret.
    public static let pqxdhInfo = Array("Parley_PQXDH_X25519_SHA-256_ML-KEM-768".utf8)
    /// HKDF info for the root-key step.
    public static let ratchetInfo = Array("Parley_Ratchet_v1".utf8)
    /// HKDF info for 1:1 message keys.
    public static let messageKeysInfo = Array("Parley_MessageKeys_v1".utf8)
    /// HKDF info for sender-key message keys.
    public static let senderKeyInfo = Array("Parley_SenderKey_v1".utf8)
}

/// The type byte that follows the version byte.
public enum MessageType: UInt8, Sendable {
    /// A Double Ratchet message.
    case message = 0x01
    /// A session-opening message that carries a Double Ratchet message.
    case preKeyMessage = 0x02
    /// A group message under a sender key.
    case groupMessage = 0x03
    /// A sender key handed to another member.
    case senderKeyDistribution = 0x04
}
