import Crypto
import Foundation
import ParleyCrypto
import ParleyProtocol

/// The long-lived secrets and settings of one signed-in device, kept sealed in the vault.
struct AccountKeys: Codable, Sendable {
    var email: String
    var displayName: String
    var server: ServerAddress
    /// 32-byte Ed25519 seed of the identity key (IK), shared by the account's devices.
    var identitySeed: [UInt8]
    /// 32-byte Ed25519 seed of the login (auth) key.
    var authSeed: [UInt8]
    var accountID: Int64?
    var deviceID: UInt32?
    var deviceName: String
    /// The next one-time prekey id to hand out.
    var nextPreKeyID: UInt32
    /// The next signed prekey id.
    var nextSignedPreKeyID: UInt32

    var identity: IdentityKeyPair { try! IdentityKeyPair(seed: identitySeed) }
    var authKey: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: authSeed) }

    /// The secret a password envelope (ECP1) protects: identity seed then auth seed.
    var envelopeSecret: [UInt8] { identitySeed + authSeed }

    /// Whether `register_confirm` succeeded.
    var isConfirmed: Bool { accountID != nil && deviceID != nil }

    /// The confirmed ids, or `.notConfirmed`.
    func confirmedIdentity() throws(ClientError) -> (accountID: Int64, deviceID: UInt32) {
        guard let accountID, let deviceID else { throw .notConfirmed }
        return (accountID, deviceID)
    }

    /// The keys a new device receives, sealed, when this one authorizes it.
    func pairingKeys() throws(ClientError) -> PairingKeys {
        let (accountID, _) = try confirmedIdentity()
        return PairingKeys(accountID: accountID, email: email, displayName: displayName, identitySeed: identitySeed, authSeed: authSeed)
    }

    func encoded() -> [UInt8] { Array(try! JSONEncoder().encode(self)) }

    static func decode(_ bytes: [UInt8]) throws(ClientError) -> AccountKeys {
        guard let keys = try? JSONDecoder().decode(AccountKeys.self, from: Data(bytes)) else {
            throw .storage("the account record is unreadable")
        }
        return keys
    }
}
