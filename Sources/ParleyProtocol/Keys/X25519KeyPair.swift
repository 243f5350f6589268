import Crypto
import ParleyCrypto

/// An X25519 key pair, used for ratchet keys, ephemeral keys and prekeys.
public struct X25519KeyPair: Sendable {
    /// The private key.
    public let privateKey: Curve25519.KeyAgreement.PrivateKey
    /// The 32-byte public key.
    public let publicKey: [UInt8]

    /// Rebuilds a pair from its 32 private-key bytes.
    public init(privateKeyBytes: [UInt8]) throws(ProtocolError) {
        guard privateKeyBytes.count == 32,
            let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes)
        else { throw .malformed("X25519 private key") }
        self.privateKey = key
        self.publicKey = Array(key.publicKey.rawRepresentation)
    }

    /// Draws 32 bytes from `random` as the private key (docs/PROTOCOL.md §3).
    public init(random: some RandomSource) {
        // 32 bytes always make a valid X25519 private key.
        try! self.init(privateKeyBytes: random.bytes(32))
    }

    /// The 32 private-key bytes, for serialisation.
    public var privateKeyBytes: [UInt8] { Array(privateKey.rawRepresentation) }
}
