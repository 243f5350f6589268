import ParleyCrypto

/// Every session state kept for one remote device: the current one first, then archived ones.
///
/// Several states exist while messages are in flight (for example when both sides opened a
/// session at once); the newest state that decrypts a message wins and becomes current.
public struct SessionRecord: Sendable {
    /// The states, current first; never empty.
    public private(set) var states: [SessionState]

    /// A record holding a single state.
    public init(state: SessionState) {
        self.states = [state]
    }

    /// Restores a record from its states, current first.
    init(states: [SessionState]) {
        precondition(!states.isEmpty, "a session record always holds a state")
        self.states = states
    }

    /// The state used for encrypting.
    public var current: SessionState { states[0] }

    /// Makes `state` current, archiving the old current state and dropping the oldest past the limit.
    public mutating func promote(_ state: SessionState) {
        states.insert(state, at: 0)
        if states.count > ProtocolConstants.maxArchivedStates + 1 {
            states.removeLast(states.count - ProtocolConstants.maxArchivedStates - 1)
        }
    }

    /// Makes the newest state that satisfies `predicate` current (the others keep their order); false when
    /// none does. A client uses it to send on a session made under its current identity key again after an
    /// older one decrypted a late message (docs/CLIENT.md §7).
    public mutating func promoteNewest(where predicate: (SessionState) -> Bool) -> Bool {
        guard let index = states.firstIndex(where: predicate) else { return false }
        if index > 0 { states.insert(states.remove(at: index), at: 0) }
        return true
    }

    /// Encrypts with the current state; a prekey message while the peer has not answered yet.
    public mutating func encrypt(_ plaintext: [UInt8], random: some RandomSource) throws(ProtocolError) -> ProtocolMessage {
        let message = try states[0].encrypt(plaintext, random: random)
        guard let pending = states[0].pendingPreKey else { return .message(message) }
        return .preKeyMessage(
            PreKeyMessage(
                identityKey: states[0].localIdentityKey, baseKey: states[0].baseKey,
                signedPreKeyId: pending.signedPreKeyId, oneTimePreKeyId: pending.oneTimePreKeyId,
                pqPreKeyId: pending.pqPreKeyId, kemCiphertext: pending.kemCiphertext, message: message))
    }

    /// Decrypts with the newest state that can, which then becomes current; nothing changes on failure.
    public mutating func decrypt(_ message: RatchetMessage, random: some RandomSource) throws(ProtocolError) -> [UInt8] {
        // The current state decrypts almost every message: try it in place, without moving states.
        if let plaintext = try? states[0].decrypt(message, random: random) { return plaintext }
        for index in states.indices.dropFirst() {
            var candidate = states[index]
            guard let plaintext = try? candidate.decrypt(message, random: random) else { continue }
            states.remove(at: index)
            states.insert(candidate, at: 0)
            return plaintext
        }
        throw .decryptionFailed
    }

    /// Decrypts with the state whose base key is `baseKey` only (a re-sent prekey message).
    mutating func decrypt(
        _ message: RatchetMessage, baseKey: [UInt8], identityKey: [UInt8], random: some RandomSource
    ) throws(ProtocolError) -> [UInt8]? {
        guard let index = states.firstIndex(where: { $0.baseKey == baseKey }) else { return nil }
        guard states[index].remoteIdentityKey == identityKey else { throw .untrustedIdentity }
        var candidate = states[index]
        let plaintext = try candidate.decrypt(message, random: random)
        states.remove(at: index)
        states.insert(candidate, at: 0)
        return plaintext
    }
}
