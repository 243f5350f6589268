import ParleyCrypto

/// Opens sessions and encrypts/decrypts 1:1 messages against the stores.
///
/// Each operation loads a record, runs the pure state transition on a copy and stores the
/// result only when it succeeded, so a rejected message changes nothing.
public struct SessionCipher: Sendable {
    /// The stores of the local device.
    public let stores: ProtocolStores

    /// Creates a cipher over `stores`.
    public init(stores: ProtocolStores) {
        self.stores = stores
    }

    /// Starts a session with `address` from its prekey bundle (Alice's side of PQXDH).
    public func startSession(
        with address: ProtocolAddress, bundle: PreKeyBundle, random: some RandomSource,
        encapsulator: some KEMEncapsulator = SystemKEMEncapsulator()
    ) throws {
        guard try stores.identities.isTrusted(bundle.identityKey, for: address) else {
            throw ProtocolError.untrustedIdentity
        }
        let identity = try stores.identities.localIdentity()
        let state = try PQXDH.initiate(identity: identity, bundle: bundle, random: random, encapsulator: encapsulator)
        var record = try stores.sessions.loadSession(for: address) ?? SessionRecord(state: state)
        if record.current.baseKey != state.baseKey { record.promote(state) }
        try stores.sessions.storeSession(record, for: address)
        try stores.identities.saveIdentity(bundle.identityKey, for: address)
    }

    /// Whether a session with `address` exists.
    public func hasSession(with address: ProtocolAddress) throws -> Bool {
        try stores.sessions.loadSession(for: address) != nil
    }

    /// Encrypts `plaintext` for `address` with the current session.
    public func encrypt(
        _ plaintext: [UInt8], for address: ProtocolAddress, random: some RandomSource
    ) throws -> ProtocolMessage {
        guard var record = try stores.sessions.loadSession(for: address) else { throw ProtocolError.noSession }
        let message = try record.encrypt(plaintext, random: random)
        try stores.sessions.storeSession(record, for: address)
        return message
    }

    /// Decrypts an encoded message (type 0x01 or 0x02) from `address`.
    public func decrypt(_ bytes: [UInt8], from address: ProtocolAddress, random: some RandomSource) throws -> [UInt8] {
        switch try ProtocolMessage(serialized: bytes) {
        case .message(let message): return try decrypt(message, from: address, random: random)
        case .preKeyMessage(let message): return try decrypt(message, from: address, random: random)
        case .groupMessage, .senderKeyDistribution:
            throw ProtocolError.unexpectedType(bytes[1])
        }
    }

    /// Decrypts a Double Ratchet message with the newest session that can.
    public func decrypt(_ message: RatchetMessage, from address: ProtocolAddress, random: some RandomSource) throws -> [UInt8] {
        guard var record = try stores.sessions.loadSession(for: address) else { throw ProtocolError.noSession }
        let plaintext = try record.decrypt(message, random: random)
        try stores.sessions.storeSession(record, for: address)
        return plaintext
    }

    /// Decrypts a prekey message, creating Bob's session if it is new (docs/PROTOCOL.md §4.2).
    public func decrypt(_ message: PreKeyMessage, from address: ProtocolAddress, random: some RandomSource) throws -> [UInt8] {
        guard try stores.identities.isTrusted(message.identityKey, for: address) else {
            throw ProtocolError.untrustedIdentity
        }
        var record = try stores.sessions.loadSession(for: address)
        // A state with this base key exists: the prekey message is a re-send (or a replay).
        if var existing = record,
            let plaintext = try existing.decrypt(
                message.message, baseKey: message.baseKey, identityKey: message.identityKey, random: random)
        {
            try stores.sessions.storeSession(existing, for: address)
            return plaintext
        }
        guard let signedPreKey = try stores.signedPreKeys.loadSignedPreKey(id: message.signedPreKeyId) else {
            throw ProtocolError.unknownPreKey(kind: "signed", id: message.signedPreKeyId)
        }
        guard let pqPreKey = try stores.pqPreKeys.loadPQPreKey(id: message.pqPreKeyId) else {
            throw ProtocolError.unknownPreKey(kind: "post-quantum", id: message.pqPreKeyId)
        }
        var oneTimePreKey: OneTimePreKeyRecord?
        if let id = message.oneTimePreKeyId {
            guard let found = try stores.preKeys.loadPreKey(id: id) else {
                throw ProtocolError.unknownPreKey(kind: "one-time", id: id)
            }
            oneTimePreKey = found
        }
        // Made for our current identity, or (sent from a bundle fetched before we rotated our keys) for a
        // retired one: the first that decrypts wins; the error is the current identity's.
        var opened: (state: SessionState, plaintext: [UInt8])?
        var firstError: (any Error)?
        for identity in [try stores.identities.localIdentity()] + (try stores.identities.retiredIdentities()) {
            do {
                var state = try PQXDH.respond(
                    identity: identity, message: message, signedPreKey: signedPreKey, oneTimePreKey: oneTimePreKey,
                    pqPreKey: pqPreKey)
                let plaintext = try state.decrypt(message.message, random: random)
                opened = (state, plaintext)
                break
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let (state, plaintext) = opened else { throw firstError ?? ProtocolError.decryptionFailed }
        if record == nil {
            record = SessionRecord(state: state)
        } else {
            record!.promote(state)
        }
        try stores.sessions.storeSession(record!, for: address)
        if let id = message.oneTimePreKeyId { try stores.preKeys.removePreKey(id: id) }
        try stores.identities.saveIdentity(message.identityKey, for: address)
        return plaintext
    }
}
