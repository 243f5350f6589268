import Logging
import ParleyProtocol
import ParleyWire

/// The one owner of this account's end-to-end sessions and sender-key chains.
///
/// Everything that steps a ratchet happens here, one step at a time: sealing and sending (`deliver`), receiving and
/// opening (`sync`, `receivePushed`), asking for and answering retries, opening held messages, and starting or
/// renewing sessions from key bundles. The account (`ParleyClient`) and its components reach it through the
/// `AccountLink`; what it consults — conversations, trust, device lists, the sent log — are those components.
actor SessionOwner {
    typealias Dependencies = HasDatabase & HasRandom & HasClock & HasServer & HasEvents & Sendable

    /// The components a ratchet step consults or records into.
    struct Parts: Sendable {
        let trust: Trust
        let deviceLists: DeviceLists
        let conversationBook: ConversationBook
        let requests: MessageRequests
        let sentLog: SentLog
        let retries: RetryQueues
        let contacts: ContactBook
        let locationKeys: LocationKeys
        let history: MessageHistory
    }

    let dependencies: any Dependencies
    let keyBook: AccountKeyBook
    let parts: Parts
    /// The sessions and chains themselves, made for the current identity key.
    var sessions: Sessions
    /// Where the receive loop stands.
    var syncState = SyncState()
    let logger = Logger(label: "parley.client")

    init(keys: AccountKeyBook, parts: Parts, dependencies: any Dependencies) {
        keyBook = keys
        self.parts = parts
        self.dependencies = dependencies
        sessions = Sessions(database: dependencies.database, identity: keys.current.identity, random: dependencies.random)
    }

    var keys: AccountKeys { keyBook.current }
    var database: ClientDatabase { dependencies.database }
    var events: EventBroadcaster<ClientEvent> { dependencies.events }

    /// The identity key changed (a rotation): sessions made from now on are made under the new one.
    func identityChanged() {
        sessions = Sessions(database: database, identity: keys.identity, random: dependencies.random)
    }

    /// Sends one typed request on the account's connection and reads its typed answer.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        try await dependencies.server.call(method, request)
    }

    /// Sends one typed request that takes no fields.
    func call<M: APIMethod>(_ method: M.Type) async throws(ClientError) -> M.Response where M.Request == NoFields {
        try await call(method, NoFields())
    }

    /// The confirmed ids, or `.notConfirmed`.
    func identity() throws(ClientError) -> (accountID: Int64, deviceID: UInt32) {
        try keys.confirmedIdentity()
    }

    /// This device's own protocol address.
    func localAddress() throws(ClientError) -> ProtocolAddress {
        let (account, device) = try identity()
        return try! ProtocolAddress(accountId: String(account), deviceId: device)
    }

    /// Seals and stores a message in `writer`'s transaction, and indexes its words for search.
    func storeMessage(_ message: Message, in writer: ClientDatabase.Writer) throws {
        try MessageHistory.store(message, in: writer)
    }

    /// Applies `change` to a stored message and reports it.
    func updateMessage(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        if let message = try parts.history.update(id, change) { events.yield(.messageUpdated(message)) }
    }

    /// Notes a stored message as not shown yet, unless it is this device's own or a control message (inside the
    /// transaction that stores it). What "new" means is `Inbox`'s (docs/CLIENT.md §5).
    func noteUnseen(_ message: Message, in writer: ClientDatabase.Writer) throws {
        guard !message.isHiddenControl, !(message.senderID == keys.accountID && message.senderDevice == keys.deviceID) else { return }
        try writer.put(Namespace.unseen, String(message.id), [])
    }

    /// Runs a storage step, turning its failure into the client's storage error.
    static func storage<T>(_ body: () throws -> T) throws(ClientError) -> T {
        do { return try body() } catch { throw ClientDatabase.clientError(error) }
    }
}

/// Where the receive loop stands.
struct SyncState {
    var running = false
    var again = false
    var waiters: [CheckedContinuation<Void, Never>] = []
}
