import Foundation
import ParleyCrypto
import ParleyWire

extension ParleyClient {
    /// Replaces the account's identity and login keys (after a suspected compromise).
    ///
    /// New prekeys signed by the new identity go up with them; the server removes the account's other
    /// devices and tells contacts (`keys_updated`) to verify the new key. Sessions and received sender-key
    /// chains are kept, so what contacts had in flight still decrypts, but a session made under the old
    /// identity never sends again (`hasSession`); our own group chains start afresh. The key backup is
    /// re-wrapped under `password`.
    public func rotateKeys(password: String, envelopeIterations: UInt32 = KeyEnvelope.defaultIterations) async throws(ClientError) {
        guard password.count >= 8 else { throw .invalidInput("the password must have at least 8 characters") }
        guard await isConnected else { throw .notConnected }
        let previous = keys
        keys.identitySeed = dependencies.random.bytes(32)
        keys.authSeed = dependencies.random.bytes(32)
        do {
            let preKeys = try freshPreKeys(includeOneTime: true)
            _ = try await call(API.RotateKeys.self, .init(
                identityKey: keys.identity.publicKey, authKey: Array(keys.authKey.publicKey.rawRepresentation), preKeys: preKeys))
        } catch {
            keys = previous
            try? saveKeys()
            throw error
        }
        let envelope: KeyEnvelope
        do { envelope = try KeyEnvelope.seal(keys.envelopeSecret, password: password, iterations: envelopeIterations) } catch {
            throw .invalidInput("cannot protect the keys with this password: \(error)")
        }
        let updated = keys.encoded()
        try database.write { writer in
            try writer.put(Namespace.account, "keys", updated)
            try writer.put(Namespace.account, "envelope", envelope.bytes)
            try writer.deleteAll(Namespace.groupChain)
            // Contacts may still hold a bundle signed by the old identity: its prekey messages open for a while yet.
            let retired = RetiredIdentity(seed: previous.identitySeed, retiredAt: self.dependencies.clock.now())
            try writer.put(Namespace.retiredIdentity, Hex.lower(previous.identity.publicKey),
                           Array(try JSONEncoder().encode(retired)))
        }
        sessions = Sessions(database: database, identity: keys.identity, random: dependencies.random)
        if let me = keys.accountID, let device = keys.deviceID { try deviceLists.set([device], of: me) }
        _ = try? await call(API.ChangePassword.self, .init(keyEnvelope: envelope.bytes))
    }
}
