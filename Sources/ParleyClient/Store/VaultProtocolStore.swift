import Foundation
import ParleyProtocol

/// The protocol's stores (identities, sessions, prekeys, sender keys) kept sealed in the client database.
final class VaultProtocolStore: IdentityKeyStore, SessionStore, PreKeyStore, SignedPreKeyStore, PQPreKeyStore, SenderKeyStore {
    private let database: ClientDatabase
    private let identity: IdentityKeyPair

    init(database: ClientDatabase, identity: IdentityKeyPair) {
        self.database = database
        self.identity = identity
    }

    /// All six stores as one value for the ciphers.
    var stores: ProtocolStores {
        ProtocolStores(identities: self, sessions: self, preKeys: self, signedPreKeys: self, pqPreKeys: self, senderKeys: self)
    }

    // MARK: identities

    func localIdentity() -> IdentityKeyPair { identity }

    /// Trust on first use, and afterwards any key the user has not pinned by verifying it: a changed key
    /// of an unverified contact is accepted (and reported), a changed key of a verified contact is not.
    func isTrusted(_ identityKey: [UInt8], for address: ProtocolAddress) throws -> Bool {
        try database.read { reader in
            guard let verified = try reader.get(Namespace.verified, address.accountId) else { return true }
            return verified == identityKey
        }
    }

    /// The identities this device had before a key rotation, newest first, for prekey messages that were made
    /// from a bundle fetched before it (kept for `DailyPruning.retiredIdentityGrace`, docs/CLIENT.md §7).
    func retiredIdentities() throws -> [IdentityKeyPair] {
        let records: [(key: String, value: [UInt8])] = try database.read { try $0.all(Namespace.retiredIdentity) }
        let retired: [RetiredIdentity] = records.compactMap { try? JSONDecoder().decode(RetiredIdentity.self, from: Data($0.value)) }
        return retired.sorted { $0.retiredAt > $1.retiredAt }.compactMap { try? IdentityKeyPair(seed: $0.seed) }
    }

    func saveIdentity(_ identityKey: [UInt8], for address: ProtocolAddress) throws {
        try database.write { writer in
            let known = try writer.reader.get(Namespace.identity, address.accountId)
            if let known, known != identityKey { try writer.put(Namespace.identityChanged, address.accountId, known) }
            try writer.put(Namespace.identity, address.accountId, identityKey)
        }
    }

    /// The identity key last seen for an account.
    func identityKey(of accountID: String) throws -> [UInt8]? {
        try database.read { try $0.get(Namespace.identity, accountID) }
    }

    // MARK: sessions

    func loadSession(for address: ProtocolAddress) throws -> SessionRecord? {
        try database.read { try $0.get(Namespace.session, address.description) }.map { try SessionRecord(serialized: $0) }
    }

    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws {
        try database.write { try $0.put(Namespace.session, address.description, record.serialized) }
    }

    // MARK: prekeys

    func loadPreKey(id: UInt32) throws -> OneTimePreKeyRecord? {
        try database.read { try $0.get(Namespace.preKey, String(id)) }.map { try OneTimePreKeyRecord(serialized: $0) }
    }

    func storePreKey(_ record: OneTimePreKeyRecord) throws {
        try database.write { try $0.put(Namespace.preKey, String(record.id), record.serialized) }
    }

    func removePreKey(id: UInt32) throws {
        try database.write { try $0.delete(Namespace.preKey, String(id)) }
    }

    func loadSignedPreKey(id: UInt32) throws -> SignedPreKeyRecord? {
        try database.read { try $0.get(Namespace.signedPreKey, String(id)) }.map { try SignedPreKeyRecord(serialized: $0) }
    }

    func storeSignedPreKey(_ record: SignedPreKeyRecord) throws {
        try database.write { try $0.put(Namespace.signedPreKey, String(record.id), record.serialized) }
    }

    func removeSignedPreKey(id: UInt32) throws {
        try database.write { try $0.delete(Namespace.signedPreKey, String(id)) }
    }

    func allSignedPreKeys() throws -> [SignedPreKeyRecord] {
        try database.read { try $0.all(Namespace.signedPreKey) }.map { try SignedPreKeyRecord(serialized: $0.value) }
    }

    func loadPQPreKey(id: UInt32) throws -> PQPreKeyRecord? {
        try database.read { try $0.get(Namespace.pqPreKey, String(id)) }.map { try PQPreKeyRecord(serialized: $0) }
    }

    func storePQPreKey(_ record: PQPreKeyRecord) throws {
        try database.write { try $0.put(Namespace.pqPreKey, String(record.id), record.serialized) }
    }

    // MARK: sender keys

    func loadSenderKey(groupId: String, sender: ProtocolAddress) throws -> SenderKeyRecord? {
        try database.read { try $0.get(Namespace.senderKey, "\(groupId)/\(sender)") }.map { try SenderKeyRecord(serialized: $0) }
    }

    func storeSenderKey(_ record: SenderKeyRecord, groupId: String, sender: ProtocolAddress) throws {
        try database.write { try $0.put(Namespace.senderKey, "\(groupId)/\(sender)", record.serialized) }
    }
}

/// The namespaces of sealed records.
enum Namespace {
    static let account = "account"
    static let identity = "identity"
    static let identityChanged = "identity_changed"
    static let verified = "verified"
    static let session = "session"
    static let preKey = "prekey"
    static let signedPreKey = "signed_prekey"
    static let pqPreKey = "pq_prekey"
    static let senderKey = "sender_key"
    static let conversation = "conversation"
    static let devices = "devices"
    static let contact = "contact"
    static let state = "state"
    static let groupChain = "group_chain"
    /// Messages this device could not read, to ask their sending device for (`SENDER.DEVICE.CONVERSATION`).
    static let retryOut = "retry_out"
    /// Retry requests for this device, to answer (by the request's message id).
    static let retryIn = "retry_in"
    /// What this device sent, by message id, to send again when asked.
    static let sent = "sent"
    /// When a fresh session was last started with a device that asked for a re-send.
    static let renewed = "renewed"
    /// Per group: the members known to have its current title (docs/CLIENT.md §8, §8.1).
    static let titleHolders = "title_holders"
    /// Per group: its current title with the creator's proof, to pass on to newcomers (§8.1).
    static let titleProof = "title_proof"
    /// Per group: a title another member passed on, waiting for the creator's key to be checked (§8.1).
    static let relayedTitle = "relayed_title"
    /// Identity seeds replaced by a key rotation, by public key (hex), with when.
    static let retiredIdentity = "retired_identity"
    /// Messages stored but not shown to the person yet (an empty value per message id).
    static let unseen = "unseen"
    /// Our re-sends (by their server id) → the original message each stands for.
    static let resendOf = "resend_of"
}

/// An identity this device answered to before a key rotation.
struct RetiredIdentity: Codable {
    var seed: [UInt8]
    /// When it was replaced, ms since 1970.
    var retiredAt: Int64
}
