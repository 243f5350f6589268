import ParleyWire

/// Who may read whose routes. The owner decides; a follower's key comes from the owner's client
/// (over E2E chat or a link), so revoking here stops reads and the client's key rotation stops decryption.
enum LocationFollowerHandlers {
    /// Most followers one person may allow.
    static let maximumFollowers = 1_000

    static func register(in router: inout RequestRouter) {
        router.add(API.AllowFollower.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let follower = try await account(request, caller, context)
            let current = try await StoreCall.call(context) { try await context.store.followers(ownerID: caller.accountID) }
            guard current.count < maximumFollowers || current.contains(where: { $0.accountID == follower }) else {
                throw WireError(.quotaExceeded, "at most \(maximumFollowers) followers; revoke some first")
            }
            let added = try await StoreCall.call(context) {
                try await context.store.allowFollower(ownerID: caller.accountID, followerID: follower, now: context.clock.now())
            }
            return API.AllowFollower.Response(accountID: follower, added: added)
        }
        router.add(API.RevokeFollower.self) { request, environment, context throws(WireError) in
            let removed = try await StoreCall.call(context) {
                try await context.store.revokeFollower(ownerID: environment.account.accountID, followerID: request.accountID)
            }
            return API.RevokeFollower.Response(removed: removed)
        }
        router.add(API.ListFollowers.self) { _, environment, context throws(WireError) in
            let followers = try await StoreCall.call(context) { try await context.store.followers(ownerID: environment.account.accountID) }
            return API.ListFollowers.Response(followers: followers.map { API.Follower(accountID: $0.accountID, since: $0.since) })
        }
        router.add(API.ListFollowing.self) { _, environment, context throws(WireError) in
            let me = environment.account.accountID
            // Not the routes of someone this account blocked (or who blocked it): they are not pushed on it either.
            let owners = try await StoreCall.call(context) { () async throws -> [Int64] in
                let blocks = try await context.store.blockPartners(of: me)
                return try await context.store.following(followerID: me).filter { !blocks.contains($0) }
            }
            return API.ListFollowing.Response(ownerIDs: owners)
        }
    }

    /// The active account named by e-mail or id, which is not the caller.
    static func account(_ choice: API.AccountChoice, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64 {
        let found: AccountRecord?
        switch choice {
        case .email(let given):
            let email = try IdentityText.email(given)
            found = try await StoreCall.call(context) { try await context.store.account(email: email) }
        case .accountID(let id):
            found = try await StoreCall.call(context) { try await context.store.account(id: id) }
        }
        guard let found, found.isActive else { throw WireError(.notFound, "no such account") }
        guard found.id != caller.accountID else { throw .invalid("email", "is you; you always see your own routes") }
        return found.id
    }
}
