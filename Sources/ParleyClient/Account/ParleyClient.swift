import Foundation
import Logging
import ParleyCrypto
import ParleyProtocol
import ParleyVault
import ParleyWire

/// One signed-in account on this device: its keys, sessions, encrypted local store and connection.
///
/// The account is made of parts (its public properties: `outgoing`, `history`, `groups`, …), built here from one
/// `AccountContext`. What steps a ratchet — sealing, sending, receiving, retries — goes through one `SessionOwner`,
/// so ratchet state is never stepped twice at once.
public actor ParleyClient {
    /// The components' needs (Proton-style): clocks, randomness, event loops.
    public typealias Dependencies = HasClock & HasRandom & HasEventLoopGroup & HasVaultClock & Sendable

    /// The account's e-mail address.
    public nonisolated let email: String
    /// The account's local directory (`HOME/accounts/EMAIL`).
    public nonisolated let directory: URL
    let dependencies: any Dependencies
    let database: ClientDatabase
    /// The end-to-end sessions and sender-key chains, and everything that steps them, one step at a time.
    nonisolated let owner: SessionOwner
    let lock: AutoLock
    /// Held for the client's lifetime: no other process steps this account's ratchets meanwhile.
    let processLock: AccountLock
    /// The account's keys, shared with the components that change them (registration, prekeys).
    let keyBook: AccountKeyBook
    var keys: AccountKeys { keyBook.current }
    /// This device's prekeys: made, stored, and topped up at the server after each login.
    let preKeys: PreKeyMint
    /// Registering and confirming this account, and the password protecting its key backup.
    public nonisolated let registration: AccountRegistration
    /// Sent records and retired identities let go with time, once a day.
    let pruning: DailyPruning
    /// What this device will ask its senders to send again, and what others asked of it (docs/CLIENT.md §2.1).
    let retries: RetryQueues
    /// The one connection to the server: opening, logging in, reconnecting, typed calls.
    let connection: AccountConnection
    let broadcaster = EventBroadcaster<ClientEvent>()
    let presence = PresenceBook()
    let logger = Logger(label: "parley.client")
    /// Messages accepted for sending and not yet acknowledged.
    /// Sending: the outbox, and what goes out now or later.
    public nonisolated let outgoing: Outgoing
    /// Acts on the server's notifications (what they say of stored messages, of presence; the rest comes here).
    let notices: ServerNotices
    /// What this device sent, kept a while for re-sending to a device that could not read it.
    nonisolated let sentLog: SentLog
    /// This device's decrypted history: one message, a conversation's newest, a search over the words.
    public nonisolated let history: MessageHistory
    /// The MainKey: locking, unlocking, how it is protected.
    public nonisolated let vault: AccountVault
    /// Pictures of people and groups: setting and fetching them, their keys, the cached blobs.
    public nonisolated let avatars: AvatarBook
    /// Encrypting and uploading files, resuming after a crash or a lost connection.
    let uploader: FileUploader
    /// Downloading, checking and saving received files.
    let downloader: FileDownloader
    /// This account's location keys and those of the people it follows.
    let locationKeys: LocationKeys
    /// Sharing this account's position: routes, posting, followers and their keys (docs/CLIENT.md §11).
    public nonisolated let location: LocationSharing
    /// Reading the routes of people who share theirs with this account, and the keys held for them.
    public nonisolated let following: LocationFollowing
    /// This account's Berry Picker Tracker key and the tracker links it follows, kept in the vault.
    public nonisolated let tracker: TrackerKeys
    /// What one does to a message already sent: reactions, pins, deleting, read marks.
    public nonisolated let messageActions: MessageActions
    /// Profiles: this account's and others', and the people this device knows.
    public nonisolated let profiles: Profiles
    /// What is new to the person: unseen messages, message requests set apart, read marks.
    public nonisolated let inbox: Inbox
    /// This account's devices: listing, revoking, adding one by its pairing code.
    public nonisolated let devices: Devices
    /// Groups: making one, members, invitations.
    public nonisolated let groups: Groups
    /// Groups' titles: set by their creator, sent to each member who joins.
    let groupTitles: GroupTitles
    /// Whom this device trusts: verifying contacts' keys, and changed keys reported, accepted or verified.
    public nonisolated let trust: Trust
    /// After each login, the contacts whose keys changed while this device was away.
    let identityCatchUp: IdentityCatchUp
    /// Message requests and the block list.
    public nonisolated let requests: MessageRequests
    /// The conversations this device knows.
    let conversationBook: ConversationBook
    /// The devices each account is believed to have: who gets a copy of each message.
    let deviceLists: DeviceLists
    /// The people this device knows: their e-mail and name as learnt, and their profiles read on demand.
    public nonisolated let contacts: ContactBook
    /// OpenPGP keys kept in the vault for `parley pgp`.
    public nonisolated let pgpVault: PGPKeyVault
    /// The components' way to the server and back to this actor.
    let link = AccountLink()

    init(email: String, directory: URL, keys: AccountKeys, database: ClientDatabase, lock: AutoLock, processLock: AccountLock,
         dependencies: any Dependencies, reconnectPolicy: ReconnectPolicy) {
        self.processLock = processLock
        self.email = email
        self.directory = directory
        keyBook = AccountKeyBook(keys, database: database)
        self.database = database
        self.lock = lock
        self.dependencies = dependencies
        connection = AccountConnection(server: keys.server, group: dependencies.eventLoopGroup, policy: reconnectPolicy, events: broadcaster)
        let context = AccountContext(database: database, directory: directory, random: dependencies.random,
                                     clock: dependencies.clock, email: email, link: link, events: broadcaster)
        outgoing = Outgoing(dependencies: context)
        history = MessageHistory(dependencies: context)
        sentLog = SentLog(dependencies: context)
        notices = ServerNotices(dependencies: context, presence: presence)
        avatars = AvatarBook(dependencies: context)
        uploader = FileUploader(dependencies: context)
        downloader = FileDownloader(dependencies: context)
        locationKeys = LocationKeys(dependencies: context)
        location = LocationSharing(dependencies: context)
        following = LocationFollowing(dependencies: context)
        tracker = TrackerKeys(dependencies: context)
        pgpVault = PGPKeyVault(dependencies: context)
        conversationBook = ConversationBook(dependencies: context)
        deviceLists = DeviceLists(dependencies: context)
        requests = MessageRequests(dependencies: context)
        groups = Groups(dependencies: context)
        groupTitles = GroupTitles(dependencies: context)
        devices = Devices(dependencies: context)
        inbox = Inbox(dependencies: context)
        profiles = Profiles(dependencies: context)
        messageActions = MessageActions(dependencies: context)
        contacts = ContactBook(dependencies: context)
        vault = AccountVault(directory: directory, autoLock: lock)
        trust = Trust(dependencies: context)
        identityCatchUp = IdentityCatchUp(dependencies: context)
        preKeys = PreKeyMint(keys: keyBook, dependencies: context)
        registration = AccountRegistration(keys: keyBook, preKeys: preKeys, connection: connection, dependencies: context)
        retries = RetryQueues(keys: keyBook, dependencies: context)
        pruning = DailyPruning(dependencies: context)
        owner = SessionOwner(keys: keyBook, parts: .init(
            trust: trust, deviceLists: deviceLists, conversationBook: conversationBook, requests: requests, sentLog: sentLog,
            retries: retries, contacts: contacts, locationKeys: locationKeys, history: history), dependencies: context)
        link.attach(self, owner: owner, connection: connection, keys: keyBook)
        connection.attach(self) { [notices] name, fields in await notices.handle(name, fields) }
    }

    /// A stream of everything that happens to this account from now on.
    public nonisolated func events() -> AsyncStream<ClientEvent> { broadcaster.subscribe() }

    /// The server account id (after confirmation).
    public var accountID: Int64? { keys.accountID }
    /// This device's id (after confirmation).
    public var deviceID: UInt32? { keys.deviceID }
    /// The server this account lives on.
    public var server: ServerAddress { keys.server }
    /// The display name given at registration.
    public var displayName: String { keys.displayName }

    /// The 32-byte Ed25519 identity key (IK) other people verify.
    public var identityKey: [UInt8] { keys.identity.publicKey }

    /// Sends one typed request on the live connection and reads its typed answer.
    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        try await connection.call(method, request)
    }

    /// Sends one typed request that takes no fields.
    func call<M: APIMethod>(_ method: M.Type) async throws(ClientError) -> M.Response where M.Request == NoFields {
        try await call(method, NoFields())
    }

    /// The confirmed ids, or `.notConfirmed`.
    func identity() throws(ClientError) -> (accountID: Int64, deviceID: UInt32) {
        try keys.confirmedIdentity()
    }

    /// Fetches everything new from the server, decrypts it, stores it, then confirms delivery.
    ///
    /// Each message is decrypted and stored — with the ratchet step and the sync cursor — in one
    /// transaction before it is confirmed, so a crash at any point loses nothing and replays nothing.
    /// Returns the messages that arrived.
    @discardableResult
    public func sync() async throws(ClientError) -> [Message] {
        try await owner.sync()
    }
}


