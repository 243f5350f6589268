import ParleyCrypto
import ParleyProtocol

extension FuzzTarget {
    static let protocolDecryptTargets: [FuzzTarget] = [
        FuzzTarget("protocol-group-decrypt", "no group message decrypts under a sender key the fuzzer does not know, and a refused message leaves the receiver's sender-key store unchanged", prepare: { _ = GroupFixture.shared }, run: groupDecrypt),
    ]
}

/// A receiver that processed a sender's distribution: the state a hostile server's message lands on.
private struct GroupFixture: Sendable {
    static let shared = GroupFixture()
    static let groupId = "fuzz-group"

    let sender: ProtocolAddress
    let receiver: GroupCipher
    let receiverKeys: InMemorySenderKeyStore

    private init() {
        sender = try! ProtocolAddress(accountId: "alice@fuzz", deviceId: 1)
        let senderCipher = GroupCipher(
            stores: .inMemory(identity: try! IdentityKeyPair(seed: [UInt8](repeating: 1, count: 32))), localAddress: sender)
        let distribution = try! senderCipher.startNewChain(groupId: Self.groupId, random: SystemRandomSource())
        receiverKeys = InMemorySenderKeyStore()
        let stores = ProtocolStores.inMemory(identity: try! IdentityKeyPair(seed: [UInt8](repeating: 2, count: 32)))
        let withKeys = ProtocolStores(
            identities: stores.identities, sessions: stores.sessions, preKeys: stores.preKeys,
            signedPreKeys: stores.signedPreKeys, pqPreKeys: stores.pqPreKeys, senderKeys: receiverKeys)
        receiver = GroupCipher(stores: withKeys, localAddress: try! ProtocolAddress(accountId: "bob@fuzz", deviceId: 1))
        try! receiver.process(distribution, groupId: Self.groupId, from: sender)
    }
}

private func groupDecrypt(_ bytes: [UInt8]) {
    let fixture = GroupFixture.shared
    let before = fixture.receiverKeys.serialized
    require((try? fixture.receiver.decrypt(bytes, groupId: GroupFixture.groupId, from: fixture.sender)) == nil,
            "a group message decrypted under a sender key the fuzzer does not know")
    require(fixture.receiverKeys.serialized == before, "a refused group message changed the receiver's sender-key store")
}
