import Foundation
import ParleyClientFormats
import ParleyCrypto
import ParleyProtocol
import ParleyWire

/// This account's end-to-end sessions (docs/CLIENT.md §2): a Double Ratchet session with each device it talks to,
/// and its sender-key chains for groups, kept sealed in the vault. Only `SessionOwner` (an actor) holds it, so no ratchet
/// is ever stepped twice at once; everything else in the client reaches the sessions through it.
struct Sessions {
    /// The protocol's stores over the vault, under this account's current identity key.
    let store: VaultProtocolStore
    let database: ClientDatabase
    /// Randomness for the ratchets (read into a local before use: a stored existential is not opened for the
    /// ciphers' `some RandomSource`).
    let random: any RandomSource
    /// This account's current identity key (after a rotation, sessions made under an older one are not used to send).
    let identity: IdentityKeyPair

    init(database: ClientDatabase, identity: IdentityKeyPair, random: any RandomSource) {
        self.store = VaultProtocolStore(database: database, identity: identity)
        self.database = database
        self.identity = identity
        self.random = random
    }

    /// One message to one device over its pairwise session.
    func encrypt(_ plaintext: [UInt8], for address: ProtocolAddress) throws(ClientError) -> [UInt8] {
        let random = self.random
        do {
            return try SessionCipher(stores: store.stores).encrypt(plaintext, for: address, random: random).serialized
        } catch {
            throw ClientDatabase.clientError(error)
        }
    }

    /// The `envelopes` of a send: one per recipient device (this account's other devices included). `local` is this
    /// device's own address (a group message is sent under its sender key).
    func envelopes(
        _ plaintext: [UInt8], conversation: Conversation, recipients: [ProtocolAddress], local: ProtocolAddress
    ) throws(ClientError) -> [API.Envelope] {
        if conversation.kind == "group" {
            do { return try groupEnvelopes(plaintext, conversationID: conversation.id, recipients: recipients, local: local) } catch {
                throw ClientDatabase.clientError(error)
            }
        }
        var out: [API.Envelope] = []
        for address in recipients { out.append(Self.envelope(address, .pairwise(try encrypt(plaintext, for: address)))) }
        return out
    }

    /// One device's envelope of a send.
    static func envelope(_ address: ProtocolAddress, _ envelope: ClientEnvelope) -> API.Envelope {
        API.Envelope(accountID: Int64(address.accountId)!, deviceID: address.deviceId, ciphertext: envelope.serialized)
    }

    /// Opens an envelope from `sender.device` in a conversation (a group's carries, once, its chain's distribution).
    func decrypt(_ bytes: [UInt8], conversationID: Int64, sender: Int64, device: UInt32, local: ProtocolAddress) throws -> MessageContent {
        let address = try ProtocolAddress(accountId: String(sender), deviceId: device)
        let random = self.random
        switch try readable({ () throws(ClientFormatError) in try ClientEnvelope(serialized: bytes) }) {
        case .pairwise(let body):
            let plaintext = try SessionCipher(stores: store.stores).decrypt(body, from: address, random: random)
            return try readable({ () throws(ClientFormatError) in try MessageContent.decode(plaintext) })
        case .group(let distribution, let body):
            let group = GroupCipher(stores: store.stores, localAddress: local)
            let groupID = Self.groupID(conversationID)
            if let distribution {
                let opened = try SessionCipher(stores: store.stores).decrypt(distribution, from: address, random: random)
                try group.process(try SenderKeyDistributionMessage(serialized: opened), groupId: groupID, from: address)
            }
            let plaintext = try group.decrypt(body, groupId: groupID, from: address)
            return try readable({ () throws(ClientFormatError) in try MessageContent.decode(plaintext) })
        case .retryRequest:
            // A request is not content; receiving takes it apart before anything is decrypted.
            throw ClientError.cannotDecrypt
        }
    }

    /// Whether a session made under our current identity key can carry the next message to `device`.
    ///
    /// After a key rotation the sessions made under the old identity are kept so that what is still in flight
    /// on them decrypts; one of them becomes current again when it decrypts a late message. Sending never uses
    /// such a state: a newer state of ours takes over, or (false) a new session is started.
    func hasSession(_ account: Int64, _ device: UInt32) throws(ClientError) -> Bool {
        do {
            let address = try ProtocolAddress(accountId: String(account), deviceId: device)
            guard var record = try store.loadSession(for: address) else { return false }
            let mine = identity.publicKey
            if record.current.localIdentityKey == mine { return true }
            guard record.promoteNewest(where: { $0.localIdentityKey == mine }) else { return false }
            try store.storeSession(record, for: address)
            return true
        } catch { throw ClientDatabase.clientError(error) }
    }

    /// Starts a session with `address` from its published bundle (a session there already is archived).
    func startSession(with address: ProtocolAddress, bundle: PreKeyBundle) throws {
        let random = self.random
        try SessionCipher(stores: store.stores).startSession(with: address, bundle: bundle, random: random)
    }
}
