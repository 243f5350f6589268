import Crypto
import ParleyCrypto

/// The post-quantum last-resort prekey (PQSPK) with its private key.
public struct PQPreKeyRecord: Sendable {
    /// The prekey id.
    public let id: UInt32
    /// When it was made, Unix seconds.
    public let createdAt: UInt64
    /// The 64-byte ML-KEM seed `d || z` the private key is derived from.
    public let seed: [UInt8]
    /// The ML-KEM-768 private key.
    public let privateKey: MLKEM768.PrivateKey
    /// The 1184-byte public key.
    public let publicKey: [UInt8]
    /// Ed25519 signature by the identity key over `0x0A || public key`.
    public let signature: [UInt8]

    /// Restores a record from its seed and signature.
    public init(id: UInt32, createdAt: UInt64, seed: [UInt8], signature: [UInt8]) throws(ProtocolError) {
        guard seed.count == 64, let key = try? MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: nil) else {
            throw .malformed("ML-KEM-768 seed")
        }
        self.id = id
        self.createdAt = createdAt
        self.seed = seed
        self.privateKey = key
        self.publicKey = Array(key.publicKey.rawRepresentation)
        self.signature = signature
    }

    /// Makes a new PQ prekey: draws the 64-byte seed.
    public static func generate(
        id: UInt32, identity: IdentityKeyPair, now: UInt64, random: some RandomSource
    ) -> PQPreKeyRecord {
        let seed = random.bytes(64)
        // Any 64 bytes are a valid seed; derive once to sign the public key.
        let key = try! MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: nil)
        let signature = identity.signPreKey(
            prefix: ProtocolConstants.pqPreKeyPrefix, publicKey: Array(key.publicKey.rawRepresentation))
        return try! PQPreKeyRecord(id: id, createdAt: now, seed: seed, signature: signature)
    }
}
