import ParleyClientFormats
import ParleyCrypto
import Synchronization
import ParleyWire

/// A component's way to the server: typed calls on the account's one connection, whose lifecycle (login,
/// reconnects) stays with the client that owns it.
protocol ServerCalling: Sendable {
    /// Sends one typed request and reads its typed answer; `notConnected` without a logged-in connection.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response
    /// Returns once connected and logged in; throws `notConnected` when reconnecting is off or `deadline` passes.
    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError)
    /// Whether a logged-in connection is open now.
    var isConnected: Bool { get async }
}

/// What a component asks of the account: what steps the ratchets (sending now, storing a group's new members, fetching
/// someone's keys: `SessionOwner`'s work) and who is who.
protocol AccountCalling: Sendable {
    /// This account's id, or `notConfirmed`.
    func confirmedAccountID() async throws(ClientError) -> Int64
    /// This account's id and this device's, or `notConfirmed`.
    func confirmedIdentity() async throws(ClientError) -> (accountID: Int64, deviceID: UInt32)
    /// The keys a new device receives, sealed, when this one authorizes it.
    func pairingKeys() async throws(ClientError) -> PairingKeys
    /// Reads this account's devices from the server, so sessions to a removed one end.
    func refreshOwnDevices() async throws(ClientError)
    /// Encrypts an outbox entry for every device the server expects, sends it, and records it (out of the outbox).
    func deliver(_ entry: OutboxEntry) async throws(ClientError) -> Message
    /// Encrypts and sends `content` to a conversation now (never queued), and records it.
    func deliverNow(_ content: MessageContent, kind: String, to conversationID: Int64) async throws(ClientError)
    /// The account id of `email`: a contact with a known key, else asked of the server with their keys.
    func resolveContact(_ email: String) async throws(ClientError) -> Int64
    /// How the user knows a contact: e-mail, else name, else the account id.
    func contactName(_ accountID: Int64) async throws(ClientError) -> String
    /// Refreshes this account's devices and catches up on messages and conversations, so that an archive made
    /// next holds everything received before a new device existed.
    func catchUpForNewDevice() async throws(ClientError)
    /// Keeps this account's new display name with its keys (after the server took it).
    func rememberDisplayName(_ name: String) async throws(ClientError)
    /// Fetches and stores what the server holds for this device.
    func syncNow() async throws(ClientError)
    /// Starts a new sender-key chain for a group: the next message reaches only its members then.
    func rekeyGroup(_ conversationID: Int64) async throws(ClientError)
    /// Stores what the server said of the conversations (`ConversationBook`): a group someone left gets a new
    /// sender-key chain first.
    func settleConversations(_ update: ConversationBook.Update) async throws(ClientError)
    /// Seals `content` for each device of `members` (never this one) on its pairwise session and sends it to that
    /// device alone.
    func sendPairwise(_ content: MessageContent, kind: String, conversationID: Int64, toMembers members: [Int64]) async throws(ClientError)
    /// Takes in a message the server pushed in its notification (decrypted, stored, confirmed).
    func takePushed(_ news: ServerEvent.NewMessage) async throws(ClientError)
    /// A group lost a member: a new sender-key chain, and the conversation read again.
    func groupShrank(_ conversationID: Int64) async throws(ClientError)
    /// Fresh sessions with each of `account`'s devices (their keys changed).
    func renewSessions(with account: Int64) async throws(ClientError)
    /// This account's own fingerprint and verification code.
    func ownVerification() async throws(ClientError) -> (fingerprint: Fingerprint, payload: VerificationPayload)
    /// A contact's key was accepted or verified: opens what they sent meanwhile and sends what waited for them.
    func trustSettled(for contact: Int64) async throws(ClientError)
    /// This account's current identity key (32 bytes, Ed25519).
    func identityPublicKey() async throws(ClientError) -> [UInt8]
    /// The proof of a group's title, signed with this account's identity key (docs/CLIENT.md §8.1).
    func signGroupTitle(_ title: String, of conversationID: Int64, version: Int64) async throws(ClientError) -> GroupTitleProof
}

/// The `ServerCalling` and `AccountCalling` the client's components hold: it reaches the client weakly, so a component never keeps
/// the account (and its process lock) alive; before `attach` or after the client is gone, calls fail
/// `notConnected`.
final class AccountLink: ServerCalling, AccountCalling {
    private let client = Mutex<Reference?>(nil)

    private struct Reference {
        weak var client: ParleyClient?
        weak var owner: SessionOwner?
        weak var connection: AccountConnection?
        weak var keys: AccountKeyBook?
    }

    /// A link that reaches nothing until `attach`.
    init() {}

    /// Points the link at its client, the owner of its sessions, its connection and its keys (once the client is
    /// fully made).
    func attach(_ target: ParleyClient, owner: SessionOwner, connection: AccountConnection, keys: AccountKeyBook) {
        client.withLock { $0 = Reference(client: target, owner: owner, connection: connection, keys: keys) }
    }

    private var target: ParleyClient? { client.withLock { $0?.client } }

    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        try await reachedConnection().call(method, request)
    }

    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        try await reachedConnection().awaitConnection(until: deadline)
    }

    var isConnected: Bool {
        get async { await (try? reachedConnection())?.isConnected ?? false }
    }

    func deliver(_ entry: OutboxEntry) async throws(ClientError) -> Message {
        try await reachedOwner().deliver(entry)
    }

    func confirmedAccountID() async throws(ClientError) -> Int64 {
        try reachedKeys().current.confirmedIdentity().accountID
    }

    func confirmedIdentity() async throws(ClientError) -> (accountID: Int64, deviceID: UInt32) {
        try reachedKeys().current.confirmedIdentity()
    }

    func pairingKeys() async throws(ClientError) -> PairingKeys {
        try reachedKeys().current.pairingKeys()
    }

    func identityPublicKey() async throws(ClientError) -> [UInt8] {
        try reachedKeys().current.identity.publicKey
    }

    func signGroupTitle(_ title: String, of conversationID: Int64, version: Int64) async throws(ClientError) -> GroupTitleProof {
        GroupTitleProof(title: title, conversationID: conversationID, version: version, signingKey: try reachedKeys().current.identity.privateKey)
    }

    func refreshOwnDevices() async throws(ClientError) {
        try await reachedOwner().refreshOwnDevices()
    }

    func deliverNow(_ content: MessageContent, kind: String, to conversationID: Int64) async throws(ClientError) {
        try await reachedOwner().deliverNow(content, kind: kind, to: conversationID)
    }

    func resolveContact(_ email: String) async throws(ClientError) -> Int64 {
        try await reached().resolveContact(email)
    }

    func contactName(_ accountID: Int64) async throws(ClientError) -> String {
        try await reached().contactName(accountID)
    }

    func catchUpForNewDevice() async throws(ClientError) {
        try await reached().catchUpForNewDevice()
    }

    func rekeyGroup(_ conversationID: Int64) async throws(ClientError) {
        try await reachedOwner().rekeyGroup(conversationID)
    }

    func settleConversations(_ update: ConversationBook.Update) async throws(ClientError) {
        try await reachedOwner().settleConversations(update)
    }

    func sendPairwise(_ content: MessageContent, kind: String, conversationID: Int64, toMembers members: [Int64]) async throws(ClientError) {
        try await reachedOwner().sendPairwise(content, kind: kind, conversationID: conversationID, toMembers: members)
    }

    func takePushed(_ news: ServerEvent.NewMessage) async throws(ClientError) {
        try await reachedOwner().receivePushed(news)
    }

    func groupShrank(_ conversationID: Int64) async throws(ClientError) {
        try await reachedOwner().groupShrank(conversationID)
    }


    func renewSessions(with account: Int64) async throws(ClientError) {
        try await reachedOwner().renewSessions(with: account)
    }

    func ownVerification() async throws(ClientError) -> (fingerprint: Fingerprint, payload: VerificationPayload) {
        let client = try reached()
        return (client.fingerprint, client.verificationPayload)
    }

    func trustSettled(for contact: Int64) async throws(ClientError) {
        try await reached().trustSettled(for: contact)
    }

    func rememberDisplayName(_ name: String) async throws(ClientError) {
        try reachedKeys().change { keys throws(ClientError) in keys.displayName = name }
    }

    func syncNow() async throws(ClientError) {
        _ = try await reachedOwner().sync()
    }

    /// The client's connection, or `notConnected` once the client is gone.
    private func reachedConnection() throws(ClientError) -> AccountConnection {
        guard target != nil, let connection = client.withLock({ $0?.connection }) else { throw .notConnected }
        return connection
    }

    /// The client's keys, or `notConnected` once the client is gone.
    private func reachedKeys() throws(ClientError) -> AccountKeyBook {
        guard target != nil, let keys = client.withLock({ $0?.keys }) else { throw .notConnected }
        return keys
    }

    /// The owner of the client's sessions, or `notConnected` once the client is gone.
    private func reachedOwner() throws(ClientError) -> SessionOwner {
        guard target != nil, let owner = client.withLock({ $0?.owner }) else { throw .notConnected }
        return owner
    }

    /// The client, or `notConnected` once it is gone.
    private func reached() throws(ClientError) -> ParleyClient {
        guard let target else { throw .notConnected }
        return target
    }
}

extension ServerCalling {
    /// Sends one typed request that takes no fields.
    func call<M: APIMethod>(_ method: M.Type) async throws(ClientError) -> M.Response where M.Request == NoFields {
        try await call(method, NoFields())
    }

    /// The socket is back but the login on it is still under way: waits a moment, or throws `notConnected` once
    /// `deadline` has passed.
    func pauseForLogin(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        guard ContinuousClock.now < deadline else { throw .notConnected }
        try? await Task.sleep(for: .milliseconds(50))
    }
}
