import ParleyCrypto

/// Why a protocol operation was refused.
///
/// Descriptions never contain key material or plaintext. Every failure on the decryption
/// path collapses into `decryptionFailed` so that a peer cannot learn which check failed.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first byte names a format version this implementation does not speak.
    case unsupportedVersion(UInt8)
    /// The type byte is unknown, or not the type the caller expected.
    case unexpectedType(UInt8)
    /// The input ended before a field was complete.
    case truncated
    /// Bytes were left over after a fixed-size structure.
    case trailingBytes
    /// The input is larger than the format allows.
    case tooLarge
    /// A field does not hold a valid value (a key that is not a point, a bad flag byte, …).
    case malformed(String)
    /// A prekey signature did not verify with the identity key.
    case invalidSignature
    /// A Diffie-Hellman output was all zeros (a low-order public key).
    case weakKeyAgreement
    /// A prekey the message refers to does not exist (used up, rotated away, or never made).
    case unknownPreKey(kind: String, id: UInt32)
    /// The sender's identity key differs from the one we trust for that address.
    case untrustedIdentity
    /// There is no session with that address.
    case noSession
    /// The session cannot send yet (it has not received the first message).
    case sessionNotReadyToSend
    /// A plaintext is larger than the largest padded message.
    case plaintextTooLarge
    /// There is no sender key for that group, sender and chain.
    case unknownSenderChain
    /// We have no sending chain of our own for that group.
    case noSendingChain
    /// A sender-key distribution message is inconsistent.
    case invalidDistribution
    /// The message could not be decrypted or authenticated.
    case decryptionFailed

    /// A readable form that never contains key material.
    public var description: String {
        switch self {
        case .unsupportedVersion(let v): "unsupported protocol version \(v)"
        case .unexpectedType(let t): "unexpected message type \(t)"
        case .truncated: "message or record is truncated"
        case .trailingBytes: "message or record has trailing bytes"
        case .tooLarge: "message or record is too large"
        case .malformed(let field): "malformed field: \(field)"
        case .invalidSignature: "prekey signature does not verify; the bundle was refused"
        case .weakKeyAgreement: "key agreement produced an all-zero secret; the key was refused"
        case .unknownPreKey(let kind, let id): "unknown \(kind) prekey \(id)"
        case .untrustedIdentity: "the sender's identity key changed; verify it before continuing"
        case .noSession: "no session with this device"
        case .sessionNotReadyToSend: "session cannot send before it has received a message"
        case .plaintextTooLarge: "plaintext is too large"
        case .unknownSenderChain: "no sender key for this group member"
        case .noSendingChain: "no sending chain for this group; create one first"
        case .invalidDistribution: "sender-key distribution message is inconsistent"
        case .decryptionFailed: "could not decrypt or authenticate the message"
        }
    }
}

extension ProtocolError {
    /// Maps a byte-reader failure to the protocol's error.
    init(_ error: ByteReader.Error) {
        switch error {
        case .truncated: self = .truncated
        }
    }
}
