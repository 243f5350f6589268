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
        let previous = keys
        var rotated = previous
        rotated.identitySeed = dependencies.random.bytes(32)
        rotated.authSeed = dependencies.random.bytes(32)
        let envelope = try AccountRegistration.envelope(of: rotated, password: password, iterations: envelopeIterations)
        guard await isConnected else { throw .notConnected }
        // The new keys are stored before they go up (prekeys signed by them are made next); if the server does
        // not take them, the previous keys come back.
        try keyBook.change { keys throws(ClientError) in keys = rotated }
        do {
            let preKeys = try self.preKeys.fresh(includeOneTime: true)
            _ = try await call(API.RotateKeys.self, .init(
                identityKey: rotated.identity.publicKey, authKey: Array(rotated.authKey.publicKey.rawRepresentation), preKeys: preKeys))
        } catch {
            try? keyBook.change { keys throws(ClientError) in
                keys.identitySeed = previous.identitySeed
                keys.authSeed = previous.authSeed
            }
            throw error
        }
        let now = dependencies.clock.now()
        try database.write { writer in
            try writer.put(Namespace.account, "envelope", envelope.bytes)
            try writer.deleteAll(Namespace.groupChain)
            // Contacts may still hold a bundle signed by the old identity: its prekey messages open for a while yet.
            let retired = RetiredIdentity(seed: previous.identitySeed, retiredAt: now)
            try writer.put(Namespace.retiredIdentity, Hex.lower(previous.identity.publicKey), Array(try JSONEncoder().encode(retired)))
        }
        await owner.identityChanged()
        if let me = keys.accountID, let device = keys.deviceID { try deviceLists.set([device], of: me) }
        _ = try? await call(API.ChangePassword.self, .init(keyEnvelope: envelope.bytes))
        // Titles signed under the old key no longer hold for whoever asks the server for the new one: the groups'
        // members get them signed again, so they can go on passing them on (docs/CLIENT.md §8.1).
        try? await groupTitles.signAgain()
    }
}
