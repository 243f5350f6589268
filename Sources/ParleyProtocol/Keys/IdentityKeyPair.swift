import Crypto
import ParleyCrypto

/// An account's Ed25519 identity key, with the X25519 form used in PQXDH.
public struct IdentityKeyPair: Sendable {
    /// The Ed25519 private key.
    public let privateKey: Curve25519.Signing.PrivateKey
    /// The 32-byte Ed25519 public key (IK).
    public let publicKey: [UInt8]

    /// Restores the pair from its 32-byte seed.
    public init(seed: [UInt8]) throws(ProtocolError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw .malformed("identity key seed")
        }
        self.privateKey = key
        self.publicKey = Array(key.publicKey.rawRepresentation)
    }

    /// Draws a 32-byte seed from `random`.
    public init(random: some RandomSource) {
        // 32 bytes always make a valid Ed25519 seed.
        try! self.init(seed: random.bytes(32))
    }

    /// The 32-byte seed, for the encrypted local store.
    public var seed: [UInt8] { Array(privateKey.rawRepresentation) }

    /// The X25519 form of the private key (docs/PROTOCOL.md §1.1).
    var agreementKey: Curve25519.KeyAgreement.PrivateKey {
        IdentityKeyConversion.x25519PrivateKey(from: privateKey)
    }

    /// Signs `prefix || publicKey`, the form of both prekey signatures.
    func signPreKey(prefix: UInt8, publicKey: [UInt8]) -> [UInt8] {
        // Signing with a valid key does not fail.
        Array(try! privateKey.signature(for: [prefix] + publicKey))
    }

    /// Checks a prekey signature made with the identity key `identityKey`.
    static func verifyPreKey(identityKey: [UInt8], prefix: UInt8, publicKey: [UInt8], signature: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey) else { return false }
        return key.isValidSignature(signature, for: [prefix] + publicKey)
    }

    /// The X25519 form of a remote Ed25519 identity key.
    static func agreementPublicKey(fromIdentityKey identityKey: [UInt8]) throws(ProtocolError) -> [UInt8] {
        guard identityKey.count == 32,
            let converted = try? IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: identityKey)
        else { throw .malformed("identity key") }
        return converted
    }
}
