import ParleyCrypto

/// Group encryption with sender keys, against the stores (docs/PROTOCOL.md §8).
public struct GroupCipher: Sendable {
    /// The stores of the local device.
    public let stores: ProtocolStores
    /// Our own address, under which our sending chains are kept.
    public let localAddress: ProtocolAddress

    /// Creates a cipher for the device at `localAddress`.
    public init(stores: ProtocolStores, localAddress: ProtocolAddress) {
        self.stores = stores
        self.localAddress = localAddress
    }

    /// Starts a new own chain for `groupId` (on joining, and whenever a member leaves).
    ///
    /// Returns the distribution message to send to every other member device over the
    /// pairwise sessions.
    public func startNewChain(groupId: String, random: some RandomSource) throws -> SenderKeyDistributionMessage {
        let state = SenderKeyState.newChain(random: random)
        var record = try stores.senderKeys.loadSenderKey(groupId: groupId, sender: localAddress)
        if record == nil { record = SenderKeyRecord(state: state) } else { record!.add(state) }
        try stores.senderKeys.storeSenderKey(record!, groupId: groupId, sender: localAddress)
        return state.distributionMessage
    }

    /// The distribution message for our current chain (for a member who joins later).
    public func currentDistribution(groupId: String) throws -> SenderKeyDistributionMessage {
        guard let record = try stores.senderKeys.loadSenderKey(groupId: groupId, sender: localAddress) else {
            throw ProtocolError.noSendingChain
        }
        return record.newest.distributionMessage
    }

    /// Keeps a chain another member sent us.
    public func process(_ distribution: SenderKeyDistributionMessage, groupId: String, from sender: ProtocolAddress) throws {
        let state = try SenderKeyState(distribution: distribution)
        var record = try stores.senderKeys.loadSenderKey(groupId: groupId, sender: sender)
        if record == nil { record = SenderKeyRecord(state: state) } else { record!.add(state) }
        try stores.senderKeys.storeSenderKey(record!, groupId: groupId, sender: sender)
    }

    /// Encrypts `plaintext` to the group on our newest chain.
    public func encrypt(_ plaintext: [UInt8], groupId: String, random: some RandomSource) throws -> GroupMessage {
        guard var record = try stores.senderKeys.loadSenderKey(groupId: groupId, sender: localAddress),
            record.newest.isOwn
        else { throw ProtocolError.noSendingChain }
        let message = try record.encrypt(plaintext, groupId: groupId, random: random)
        try stores.senderKeys.storeSenderKey(record, groupId: groupId, sender: localAddress)
        return message
    }

    /// Decrypts an encoded group message from `sender`.
    public func decrypt(_ bytes: [UInt8], groupId: String, from sender: ProtocolAddress) throws -> [UInt8] {
        let message = try GroupMessage(serialized: bytes)
        guard var record = try stores.senderKeys.loadSenderKey(groupId: groupId, sender: sender) else {
            throw ProtocolError.unknownSenderChain
        }
        let plaintext = try record.decrypt(message, groupId: groupId)
        try stores.senderKeys.storeSenderKey(record, groupId: groupId, sender: sender)
        return plaintext
    }
}
