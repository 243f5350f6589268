import Foundation
import ParleyWire

/// What `--registration` asks of `register` and `register_confirm` (docs/API.md §3, docs/OPERATIONS.md §7).
///
/// An invite code is checked at `register` and one of its uses is spent when the account is confirmed, so a
/// lost verification code or a mistyped address costs no use. A code that fails answers the same whatever
/// the reason (never issued, expired, used up, revoked).
enum Invitation {
    static let refused = "this invite code cannot be used: it may be mistyped, expired, used up or revoked; ask the server's operator for a new one"

    /// The id of the usable invite the request gives (`typed`), when the server takes new accounts by invitation; nil on
    /// an open server. Throws on a closed server, and when the invite is missing or unusable.
    static func required(_ typed: String?, _ context: ServerContext, now: Int64) async throws(WireError) -> Int64? {
        switch context.configuration.registration {
        case .open:
            return nil
        case .closed:
            throw WireError(.forbidden, "this server is not taking new accounts; ask its operator")
        case .invite:
            guard let typed else {
                throw WireError(.forbidden, "this server takes new accounts by invitation: ask its operator for an invite code and give it with the registration")
            }
            guard let code = InviteCode.normalised(typed) else { throw WireError(.forbidden, refused) }
            let usable = try await StoreCall.call(context) { try await context.store.usableInvite(codeHash: InviteCode.hash(ofNormalised: code), now: now) }
            guard let usable else { throw WireError(.forbidden, refused) }
            return usable
        }
    }

    /// Activates a confirmed account, spending its invite on a server that takes accounts by invitation.
    static func activate(email: String, _ context: ServerContext, now: Int64) async throws {
        switch context.configuration.registration {
        case .open:
            try await context.store.activateAccount(email: email)
        case .closed:
            throw WireError(.forbidden, "this server is not taking new accounts; ask its operator")
        case .invite:
            guard try await context.store.activateAccount(email: email, spendingHeldInviteAt: now) else {
                throw WireError(.forbidden, "the invite this registration came with was used up, revoked or expired before it was confirmed; ask the server's operator for a new one and register again")
            }
        }
    }
}
