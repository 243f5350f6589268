import ParleyCrypto

/// The sender chains of one member in one group, newest first (docs/PROTOCOL.md §8).
///
/// Older chains stay (up to five) so messages sent on them before a rotation still decrypt.
public struct SenderKeyRecord: Sendable {
    /// The chains, newest first; never empty.
    public private(set) var states: [SenderKeyState]

    /// A record holding one chain.
    public init(state: SenderKeyState) {
        self.states = [state]
    }

    /// Restores a record from its chains, newest first.
    init(states: [SenderKeyState]) {
        precondition(!states.isEmpty, "a sender-key record always holds a chain")
        self.states = states
    }

    /// The newest chain; for our own record, the one we send on.
    public var newest: SenderKeyState { states[0] }

    /// Adds `state` as the newest chain unless a chain with its id is already held.
    public mutating func add(_ state: SenderKeyState) {
        guard !states.contains(where: { $0.chainId == state.chainId }) else { return }
        states.insert(state, at: 0)
        if states.count > ProtocolConstants.maxSenderKeyStates {
            states.removeLast(states.count - ProtocolConstants.maxSenderKeyStates)
        }
    }

    /// Encrypts on the newest chain, which must be our own.
    public mutating func encrypt(
        _ plaintext: [UInt8], groupId: String, random: some RandomSource
    ) throws(ProtocolError) -> GroupMessage {
        try states[0].encrypt(plaintext, groupId: groupId, random: random)
    }

    /// Decrypts with the chain the message names; nothing changes on failure.
    public mutating func decrypt(_ message: GroupMessage, groupId: String) throws(ProtocolError) -> [UInt8] {
        guard let index = states.firstIndex(where: { $0.chainId == message.chainId }) else {
            throw .unknownSenderChain
        }
        return try states[index].decrypt(message, groupId: groupId)
    }
}
