/// Everything the server persists, behind one protocol so SQLite and PostgreSQL are interchangeable.
///
/// Every method that returns normally has committed its change durably: callers acknowledge to
/// clients only after it returns. Implementations keep each method one transaction.
public protocol Store: AccountStore, PreKeyStore, ConversationStore, GroupStore, MessageStore, MessageActionStore, ProfileStore, FileStore, LocationStore, PairingStore, RetentionStore, RequestStore, InviteStore, AdminStore {}

/// Accounts, e-mail verification, login nonces and lockouts.
public protocol AccountStore: Sendable {
    /// Creates a pending account with its first device, or replaces a still-pending one with
    /// the same e-mail (so a lost code can be re-requested). Throws `.conflict` for an active account.
    func createPendingAccount(_ account: NewAccount, verification: VerificationRecord, now: Int64) async throws -> Int64

    /// The pending verification for `email`, if any.
    func verification(email: String) async throws -> VerificationRecord?

    /// Starts (or restarts, attempts reset) the code check for an active account's key recovery.
    func saveRecoveryCode(email: String, _ verification: VerificationRecord) async throws

    /// Counts a wrong code; returns the new count.
    func recordWrongCode(email: String) async throws -> Int

    /// Drops a pending verification (after too many wrong codes).
    func deleteVerification(email: String) async throws

    /// Activates the account and removes its verification.
    func activateAccount(email: String) async throws

    /// The account signed in with `email`, active or not.
    func account(email: String) async throws -> AccountRecord?

    /// One device of an account.
    func device(accountID: Int64, deviceID: UInt32) async throws -> DeviceRecord?

    /// Every device of an account, oldest first.
    func devices(accountID: Int64) async throws -> [DeviceRecord]

    /// An account by id, active or not.
    func account(id: Int64) async throws -> AccountRecord?

    /// Stores a single-use login nonce, deleting those that expired `LoginNonceWindow.span` before this one does.
    func saveLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, expiresAt: Int64) async throws

    /// Deletes the nonce and returns whether it existed for this account and device and had not expired.
    func consumeLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, now: Int64) async throws -> Bool

    /// Lockout state of `subject` ("account:ID" or "address:IP").
    func lockout(subject: String) async throws -> LockoutRecord?

    /// Saves lockout state.
    func saveLockout(subject: String, _ record: LockoutRecord) async throws

    /// Forgets lockout state after a success.
    func clearLockout(subject: String) async throws

    /// Replaces the stored password-encrypted key envelope (nil removes it).
    func setKeyEnvelope(accountID: Int64, _ envelope: [UInt8]?) async throws

    /// Replaces identity and auth keys and this device's prekeys, in one transaction; every other device
    /// leaves the account (with its prekeys, envelopes and login nonces): it cannot follow the new identity.
    func rotateKeys(accountID: Int64, deviceID: UInt32, identityKey: [UInt8], authKey: [UInt8], preKeys: PreKeyUpload) async throws

    /// Adds the account's next device (ids are never reused) with its prekeys, and records it on the
    /// pairing `pairingID` names, in one transaction; nil, changing nothing, when the account already holds
    /// `limit` devices (counted in that transaction, so two devices added at once cannot both pass it).
    func addDevice(accountID: Int64, name: String, preKeys: PreKeyUpload, pairingID: UInt32?, limit: Int, now: Int64) async throws -> DeviceRecord?

    /// Records that a device logged in or disconnected at `at`.
    func touchDevice(accountID: Int64, deviceID: UInt32, at: Int64) async throws

    /// Removes a device and its prekeys and envelopes.
    func removeDevice(accountID: Int64, deviceID: UInt32) async throws

    /// The account holding `username`, if any.
    func accountID(username: String) async throws -> Int64?

    /// Registrations accepted since `since` (ms), for surge detection.
    func registrationCount(since: Int64) async throws -> Int

    /// Counts a `register` for an address that already has an account, as a registration for surge detection:
    /// one committed write, as a new registration makes, so the two answers take alike long.
    func recordRegistrationAttempt(now: Int64) async throws
}

/// How many login nonces are kept. `login_start` stores one for an existing account whoever asks, before any login;
/// each save deletes those expiring more than `span` before the new one (a nonce lives 60 s, so these expired at
/// least a minute ago), so however fast strangers ask the table holds about two minutes of them — not the hour
/// after expiry the retention sweep would leave (512 connections not logged in, at 50 requests a second each,
/// kept an hour: some 90 million rows).
public enum LoginNonceWindow {
    public static let span: Int64 = 120_000
}
