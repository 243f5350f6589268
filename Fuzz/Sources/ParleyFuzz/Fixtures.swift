import Crypto
import ParleyCrypto

/// Fixed keys the decrypting targets try: the fuzzer never knows a key, so no input may open.
enum Fixtures {
    /// A P-256 key for Apple ECIES and FileLock packages.
    static let p256 = try! P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
    /// An X25519 key for pairing.
    static let x25519 = try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x22, count: 32))
    /// The password tried on key envelopes, OpenPGP messages and location values.
    static let password = "fuzz"

    /// A pairing channel (scrypt runs once, here, not per input).
    static let pairing: PairingChannel = {
        let peer = try! Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))
        return try! PairingChannel(
            code: PairingCode(pairID: 7, secret: [UInt8](repeating: 0x44, count: 8)), ownPrivate: x25519,
            newDevicePublic: Array(x25519.publicKey.rawRepresentation),
            authorizingPublic: Array(peer.publicKey.rawRepresentation), role: .newDevice)
    }()
}
