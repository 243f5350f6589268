/// An invite as the operator sees it; the code itself is shown once, at creation, and never stored.
public struct InviteRecord: Sendable, Equatable {
    public var id: Int64
    public var note: String
    /// Accounts still to be created with it.
    public var usesLeft: Int
    /// Accounts created with it so far.
    public var used: Int
    public var expiresAt: Int64
    public var createdAt: Int64
    public var revokedAt: Int64?
}

/// Invite codes for `--registration invite` (docs/OPERATIONS.md §7).
public protocol InviteStore: Sendable {
    /// Stores a new invite under the code's hash.
    func createInvite(codeHash: [UInt8], note: String, uses: Int, expiresAt: Int64, now: Int64) async throws -> InviteRecord

    /// Every invite, newest first.
    func invites() async throws -> [InviteRecord]

    /// Revokes an invite; false when there is no such invite (or it was revoked already).
    func revokeInvite(id: Int64, now: Int64) async throws -> Bool

    /// The id of the invite with this code hash if it can still be used now (not expired, revoked or used up).
    func usableInvite(codeHash: [UInt8], now: Int64) async throws -> Int64?

    /// Remembers which invite a pending registration came with (replacing an earlier one for the address).
    func holdInvite(_ inviteID: Int64, for email: String) async throws

    /// In one transaction: spends one use of the invite the pending registration of `email` holds, and
    /// activates the account (as `activateAccount`). False, changing nothing, when it holds none or the
    /// invite can no longer be used.
    func activateAccount(email: String, spendingHeldInviteAt now: Int64) async throws -> Bool
}
