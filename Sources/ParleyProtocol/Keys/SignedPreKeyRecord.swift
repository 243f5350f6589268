import Crypto
import ParleyCrypto

/// A signed prekey (SPK) with its private key, kept by the device that made it.
public struct SignedPreKeyRecord: Sendable {
    /// The prekey id.
    public let id: UInt32
    /// When it was made, Unix seconds; drives rotation.
    public let createdAt: UInt64
    /// The X25519 pair.
    public let keyPair: X25519KeyPair
    /// Ed25519 signature by the identity key over `0x05 || public key`.
    public let signature: [UInt8]

    /// Creates a record from its parts.
    public init(id: UInt32, createdAt: UInt64, keyPair: X25519KeyPair, signature: [UInt8]) {
        self.id = id
        self.createdAt = createdAt
        self.keyPair = keyPair
        self.signature = signature
    }

    /// Makes a new signed prekey: draws 32 bytes for the private key.
    public static func generate(
        id: UInt32, identity: IdentityKeyPair, now: UInt64, random: some RandomSource
    ) -> SignedPreKeyRecord {
        let pair = X25519KeyPair(random: random)
        return SignedPreKeyRecord(
            id: id, createdAt: now, keyPair: pair,
            signature: identity.signPreKey(prefix: ProtocolConstants.signedPreKeyPrefix, publicKey: pair.publicKey))
    }
}
