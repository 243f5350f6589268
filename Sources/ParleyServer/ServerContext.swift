import Logging
import ParleyCrypto

/// The shared parts every handler may use, passed in rather than reached through singletons.
public struct ServerContext: Sendable {
    public var configuration: ServerConfiguration
    public var store: any Store
    public var clock: any WallClock
    public var random: any RandomSource
    public var codeSender: any VerificationCodeSender
    public var proofOfWork: ProofOfWorkGate
    public var notifications: NotificationHub
    /// Who is online: this node's connections, or every node's with a backplane.
    public var presence: any PresenceDirectory
    public var accountLimits: AccountRateLimits
    /// What each account's listings may return (`ListingAllowance`).
    public var listingAllowance: ListingAllowance
    public var logger: Logger

    public init(
        configuration: ServerConfiguration, store: any Store, clock: any WallClock, random: any RandomSource,
        codeSender: any VerificationCodeSender, logger: Logger, backplane: PostgresBackplane? = nil
    ) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.random = random
        self.codeSender = codeSender
        self.proofOfWork = ProofOfWorkGate(random: random)
        let hub = NotificationHub()
        self.notifications = hub
        if let backplane {
            // One node of several on one database: events, presence and rate limits are shared through it.
            backplane.attach(hub)
            self.presence = backplane
            self.accountLimits = AccountRateLimits(rate: configuration.accountRequestsPerSecond, ledger: backplane)
        } else {
            self.presence = LocalPresence(hub: hub)
            self.accountLimits = AccountRateLimits(rate: configuration.accountRequestsPerSecond)
        }
        self.listingAllowance = ListingAllowance(itemsPerSecond: configuration.accountListedItemsPerSecond)
        self.logger = logger
    }
}

/// Who is on the other end of a connection, once logged in.
public struct Caller: Sendable, Equatable {
    /// The account's id.
    public var accountID: Int64
    /// The logged-in device.
    public var deviceID: UInt32
    /// The device asked at login (`push_envelopes`) to get a new message's envelope in its `new_message`
    /// notification (docs/API.md §6.1).
    public var pushesEnvelopes = false
}
