import Foundation

/// Everything `parley server` can be told at start-up.
public struct ServerConfiguration: Sendable {
    /// Host to bind ("127.0.0.1", "::", "0.0.0.0").
    public var host: String
    /// Port to bind; 0 picks a free one (tests).
    public var port: Int
    /// Directory for the SQLite database and development files.
    public var dataDirectory: URL
    /// PEM certificate chain and key; both set turns on TLS.
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    /// Development mode: verification codes go to the log and `dev-codes.log`.
    public var development: Bool
    /// The longest request line accepted.
    public var maximumLineLength: Int
    /// Seconds from accepting a connection to its login, after which it is closed whatever it sends.
    public var loginTimeoutSeconds: Int64
    /// Requests per second one connection may make (burst: twice this).
    public var requestsPerSecond: Double
    /// Registrations per minute above which `register` demands proof of work.
    public var registrationSurgeThreshold: Int
    /// Leading zero bits demanded during a surge.
    public var proofOfWorkDifficulty: Int
    /// Requests per second one account may make across all its connections (burst: twice this).
    public var accountRequestsPerSecond: Double = 100
    /// Items (conversations, and members of each) one account's `list_conversations` answers may hold per
    /// second (`get_conversation` is counted too), bursts of ten times that; the next listing waits while the last
    /// ones are not paid off (`ListingAllowance`).
    public var accountListedItemsPerSecond: Double = 10_000
    /// The largest encrypted file one upload may hold.
    public var maximumFileSize: Int64 = 64 << 20
    /// Bytes of encrypted files one account may keep.
    public var fileQuota: Int64 = 1 << 30
    /// Bytes of message ciphertext one account's messages may hold waiting for delivery (docs/API.md §11): every
    /// envelope it sent that a device has not confirmed yet, until the retention sweep takes it.
    public var undeliveredQuota: Int64 = 1 << 30
    /// PostgreSQL instead of the SQLite file in `dataDirectory`, when set (`--database`).
    public var databaseURL: PostgresURL?
    /// How long one PostgreSQL call may take before the request is answered `unavailable` (`--database-timeout`).
    public var databaseCallTimeout: Duration = PostgresStore.defaultCallTimeout
    /// What is deleted when (`--retention-days`); docs/OPERATIONS.md §5.
    public var retention = RetentionPolicy()
    /// Connections, pairing devices and unfinished lines the server will hold (docs/OPERATIONS.md §6).
    public var limits = ConnectionLimits()
    /// Who may create an account (`--registration`): by default anyone on a development server, on any
    /// other only with an invite code (docs/OPERATIONS.md §7).
    public var registration: RegistrationMode
    /// How often the retention sweeper runs (`--sweep-minutes`).
    public var retentionSweepInterval: Duration = .seconds(600)

    /// A configuration with the documented defaults.
    public init(
        host: String = "127.0.0.1", port: Int = 7433, dataDirectory: URL,
        tlsCertificatePath: String? = nil, tlsKeyPath: String? = nil, development: Bool = false,
        maximumLineLength: Int = 1 << 20, loginTimeoutSeconds: Int64 = 30, requestsPerSecond: Double = 50,
        registrationSurgeThreshold: Int = 30, proofOfWorkDifficulty: Int = 20
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.development = development
        self.maximumLineLength = maximumLineLength
        self.loginTimeoutSeconds = loginTimeoutSeconds
        self.requestsPerSecond = requestsPerSecond
        self.registrationSurgeThreshold = registrationSurgeThreshold
        self.proofOfWorkDifficulty = proofOfWorkDifficulty
        self.registration = development ? .open : .invite
    }

    /// Where the SQLite database lives.
    public var databasePath: String { dataDirectory.appendingPathComponent("parley.sqlite").path }
    /// Where development verification codes are appended.
    public var developmentCodesFile: URL { dataDirectory.appendingPathComponent("dev-codes.log") }
}
