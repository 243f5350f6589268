import Crypto
import ParleyCrypto

/// Session setup: X3DH with an ML-KEM-768 secret mixed in (docs/PROTOCOL.md §4).
public enum PQXDH {
    /// Alice's result: the new session state and the message fields Bob needs.
    struct Initiation {
        /// The session, with its pending prekey set.
        let state: SessionState
        /// SK, exposed to known-answer tests only.
        let sharedSecret: [UInt8]
    }

    /// Alice's side: verifies the bundle, agrees on SK and starts the ratchet.
    ///
    /// Draws 32 bytes for EK_A, then 32 for the first ratchet key.
    public static func initiate(
        identity: IdentityKeyPair, bundle: PreKeyBundle, random: some RandomSource,
        encapsulator: some KEMEncapsulator = SystemKEMEncapsulator()
    ) throws(ProtocolError) -> SessionState {
        try initiation(identity: identity, bundle: bundle, random: random, encapsulator: encapsulator).state
    }

    /// Alice's side, also returning SK for vectors.
    static func initiation(
        identity: IdentityKeyPair, bundle: PreKeyBundle, random: some RandomSource,
        encapsulator: some KEMEncapsulator
    ) throws(ProtocolError) -> Initiation {
        guard bundle.signedPreKey.count == 32,
            IdentityKeyPair.verifyPreKey(
                identityKey: bundle.identityKey, prefix: ProtocolConstants.signedPreKeyPrefix,
                publicKey: bundle.signedPreKey, signature: bundle.signedPreKeySignature),
            IdentityKeyPair.verifyPreKey(
                identityKey: bundle.identityKey, prefix: ProtocolConstants.pqPreKeyPrefix,
                publicKey: bundle.pqPreKey, signature: bundle.pqPreKeySignature)
        else { throw .invalidSignature }
        guard let pqKey = try? MLKEM768.PublicKey(rawRepresentation: bundle.pqPreKey) else {
            throw .malformed("ML-KEM-768 public key")
        }
        let remoteIdentity = try IdentityKeyPair.agreementPublicKey(fromIdentityKey: bundle.identityKey)
        let ephemeral = X25519KeyPair(random: random)

        var ikm = [UInt8](repeating: 0xFF, count: 32)
        ikm += try Primitives.dh(identity.agreementKey, bundle.signedPreKey)
        ikm += try Primitives.dh(ephemeral.privateKey, remoteIdentity)
        ikm += try Primitives.dh(ephemeral.privateKey, bundle.signedPreKey)
        if let oneTimePreKey = bundle.oneTimePreKey {
            guard bundle.oneTimePreKeyId != nil, bundle.oneTimePreKeyId != ProtocolConstants.noOneTimePreKey else {
                throw .malformed("one-time prekey id")
            }
            ikm += try Primitives.dh(ephemeral.privateKey, oneTimePreKey)
        }
        let kem: (ciphertext: [UInt8], sharedSecret: [UInt8])
        do {
            kem = try encapsulator.encapsulate(to: pqKey)
        } catch {
            throw .malformed("ML-KEM-768 encapsulation")
        }
        guard kem.ciphertext.count == PreKeyMessage.kemCiphertextSize, kem.sharedSecret.count == 32 else {
            throw .malformed("ML-KEM-768 encapsulation")
        }
        ikm += kem.sharedSecret
        let secret = sharedSecret(ikm: ikm)

        let pending = SessionState.PendingPreKey(
            signedPreKeyId: bundle.signedPreKeyId, oneTimePreKeyId: bundle.oneTimePreKeyId,
            pqPreKeyId: bundle.pqPreKeyId, kemCiphertext: kem.ciphertext)
        let state = try SessionState.initiator(
            sharedSecret: secret, localIdentityKey: identity.publicKey, remoteIdentityKey: bundle.identityKey,
            baseKey: ephemeral.publicKey, remoteSignedPreKey: bundle.signedPreKey, pendingPreKey: pending,
            random: random)
        return Initiation(state: state, sharedSecret: secret)
    }

    /// Bob's side: agrees on SK from a prekey message and his private prekeys.
    ///
    /// The returned state has not decrypted anything yet; the caller keeps it only if the
    /// inner message decrypts.
    public static func respond(
        identity: IdentityKeyPair, message: PreKeyMessage, signedPreKey: SignedPreKeyRecord,
        oneTimePreKey: OneTimePreKeyRecord?, pqPreKey: PQPreKeyRecord
    ) throws(ProtocolError) -> SessionState {
        try response(
            identity: identity, message: message, signedPreKey: signedPreKey, oneTimePreKey: oneTimePreKey,
            pqPreKey: pqPreKey
        ).state
    }

    /// Bob's side, also returning SK for vectors.
    static func response(
        identity: IdentityKeyPair, message: PreKeyMessage, signedPreKey: SignedPreKeyRecord,
        oneTimePreKey: OneTimePreKeyRecord?, pqPreKey: PQPreKeyRecord
    ) throws(ProtocolError) -> Initiation {
        guard message.oneTimePreKeyId == oneTimePreKey?.id else { throw .malformed("one-time prekey id") }
        let remoteIdentity = try IdentityKeyPair.agreementPublicKey(fromIdentityKey: message.identityKey)
        var ikm = [UInt8](repeating: 0xFF, count: 32)
        ikm += try Primitives.dh(signedPreKey.keyPair.privateKey, remoteIdentity)
        ikm += try Primitives.dh(identity.agreementKey, message.baseKey)
        ikm += try Primitives.dh(signedPreKey.keyPair.privateKey, message.baseKey)
        if let oneTimePreKey {
            ikm += try Primitives.dh(oneTimePreKey.keyPair.privateKey, message.baseKey)
        }
        do {
            let secret = try pqPreKey.privateKey.decapsulate(message.kemCiphertext)
            ikm += secret.withUnsafeBytes { Array($0) }
        } catch {
            // ML-KEM decapsulation rejects implicitly; a failure here is a malformed ciphertext.
            throw .decryptionFailed
        }
        let secret = sharedSecret(ikm: ikm)
        let state = SessionState.responder(
            sharedSecret: secret, localIdentityKey: identity.publicKey, remoteIdentityKey: message.identityKey,
            baseKey: message.baseKey, signedPreKey: signedPreKey.keyPair)
        return Initiation(state: state, sharedSecret: secret)
    }

    /// SK = HKDF(salt = 32 zero bytes, ikm, "Parley_PQXDH_X25519_SHA-256_ML-KEM-768", 32).
    static func sharedSecret(ikm: [UInt8]) -> [UInt8] {
        Primitives.hkdf(
            salt: [UInt8](repeating: 0, count: 32), ikm: ikm, info: ProtocolConstants.pqxdhInfo, count: 32)
    }
}
