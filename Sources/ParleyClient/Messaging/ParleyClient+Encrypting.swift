import Foundation
import ParleyCrypto
import ParleyProtocol
import ParleyWire

extension ParleyClient {
    /// The `envelopes` of a send: one per recipient device (this account's other devices included).
    func envelopes(
        for entry: OutboxEntry, conversation: Conversation, recipients: [ProtocolAddress], me: Int64
    ) throws(ClientError) -> [API.Envelope] {
        let plaintext = entry.content.encoded()
        var out: [API.Envelope] = []
        do {
            if conversation.kind == "group" {
                out = try groupEnvelopes(plaintext, conversationID: conversation.id, recipients: recipients)
            } else {
                let cipher = SessionCipher(stores: protocolStore.stores)
                for address in recipients {
                    let message = try cipher.encrypt(plaintext, for: address, random: dependencies.random)
                    out.append(envelope(address, ClientEnvelope.pairwise(message.serialized)))
                }
            }
        } catch {
            throw ClientDatabase.clientError(error)
        }
        return out
    }

    func envelope(_ address: ProtocolAddress, _ envelope: ClientEnvelope) -> API.Envelope {
        API.Envelope(accountID: Int64(address.accountId)!, deviceID: address.deviceId, ciphertext: envelope.serialized)
    }

    /// One group message for everyone; devices that lack our current chain also get its distribution
    /// message over their pairwise session. A device that left the recipients (a removed member, a
    /// removed device) makes us start a new chain first, so it cannot read anything sent afterwards.
    private func groupEnvelopes(_ plaintext: [UInt8], conversationID: Int64, recipients: [ProtocolAddress]) throws -> [API.Envelope] {
        let groupID = Self.groupID(conversationID)
        let group = GroupCipher(stores: protocolStore.stores, localAddress: try localAddress())
        let targets = Set(recipients.map(\.description))
        var chain = try groupChain(conversationID)
        if chain == nil || !chain!.members.isSubset(of: targets) || (try? group.currentDistribution(groupId: groupID)) == nil {
            _ = try group.startNewChain(groupId: groupID, random: dependencies.random)
            chain = GroupChainState(members: targets, distributed: [])
        }
        chain!.members.formUnion(targets)
        let distribution = try group.currentDistribution(groupId: groupID).serialized
        let message = try group.encrypt(plaintext, groupId: groupID, random: dependencies.random).serialized
        let pairwise = SessionCipher(stores: protocolStore.stores)
        var out: [API.Envelope] = []
        for address in recipients {
            let carried = chain!.distributed.contains(address.description)
                ? nil : try pairwise.encrypt(distribution, for: address, random: dependencies.random).serialized
            out.append(envelope(address, .group(distribution: carried, message: message)))
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
