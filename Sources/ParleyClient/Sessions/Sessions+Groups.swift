import Foundation
import ParleyProtocol
import ParleyWire

/// Sender-key chains: one group message for everyone, the chain's distribution message carried once to each
/// device over its pairwise session, and a new chain whenever a device leaves the recipients.
extension Sessions {
    /// One group message for everyone; devices that lack our current chain also get its distribution
    /// message over their pairwise session. A device that left the recipients (a removed member, a
    /// removed device) makes us start a new chain first, so it cannot read anything sent afterwards.
    func groupEnvelopes(_ plaintext: [UInt8], conversationID: Int64, recipients: [ProtocolAddress], local: ProtocolAddress) throws -> [API.Envelope] {
        let groupID = Self.groupID(conversationID)
        let group = GroupCipher(stores: store.stores, localAddress: local)
        let random = self.random
        let targets = Set(recipients.map(\.description))
        var chain = try groupChain(conversationID)
        if chain == nil || !chain!.members.isSubset(of: targets) || (try? group.currentDistribution(groupId: groupID)) == nil {
            _ = try group.startNewChain(groupId: groupID, random: random)
            chain = GroupChainState(members: targets, distributed: [])
        }
        chain!.members.formUnion(targets)
        let distribution = try group.currentDistribution(groupId: groupID).serialized
        let message = try group.encrypt(plaintext, groupId: groupID, random: random).serialized
        let pairwise = SessionCipher(stores: store.stores)
        var out: [API.Envelope] = []
        for address in recipients {
            let carried = chain!.distributed.contains(address.description)
                ? nil : try pairwise.encrypt(distribution, for: address, random: random).serialized
            out.append(Self.envelope(address, .group(distribution: carried, message: message)))
        }
        try saveGroupChain(chain!, conversationID)
        return out
    }

    /// Records that `recipients` now hold our current chain.
    func markDistributed(conversationID: Int64, to recipients: [ProtocolAddress]) throws(ClientError) {
        guard var chain = try groupChain(conversationID) else { return }
        chain.distributed.formUnion(recipients.map(\.description))
        try saveGroupChain(chain, conversationID)
    }

    /// A device lost its sessions with us: it must get our chains' distribution messages again.
    func forgetDistribution(to address: ProtocolAddress) throws(ClientError) {
        let chains = try database.read { try $0.all(Namespace.groupChain) }
        for (key, bytes) in chains {
            guard var chain = try? JSONDecoder().decode(GroupChainState.self, from: Data(bytes)),
                  chain.distributed.remove(address.description) != nil else { continue }
            let updated = Array(try! JSONEncoder().encode(chain))
            try database.write { try $0.put(Namespace.groupChain, key, updated) }
        }
    }

    /// Forgets our chain so the next group message starts a new one (membership changed).
    func rekeyGroup(_ conversationID: Int64) throws(ClientError) {
        try database.write { try $0.delete(Namespace.groupChain, String(conversationID)) }
    }

    /// Our chain's state in a conversation: who it went to, and who holds its distribution message.
    func groupChain(_ conversationID: Int64) throws(ClientError) -> GroupChainState? {
        try database.read { try $0.get(Namespace.groupChain, String(conversationID)) }
            .flatMap { try? JSONDecoder().decode(GroupChainState.self, from: Data($0)) }
    }

    private func saveGroupChain(_ chain: GroupChainState, _ conversationID: Int64) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(chain))
        try database.write { try $0.put(Namespace.groupChain, String(conversationID), bytes) }
    }

    /// The sender-key group id of a conversation.
    static func groupID(_ conversationID: Int64) -> String { "conversation-\(conversationID)" }
}
