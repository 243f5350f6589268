import ParleyWire

/// Who may read whose routes. The owner decides; a follower's key comes from the owner's client
/// (over E2E chat or a link), so revoking here stops reads and the client's key rotation stops decryption.
enum LocationFollowerHandlers {
    /// Most followers one person may allow.
    static let maximumFollowers = 1_000

    static func register(in router: inout RequestRouter) {
        router.add("allow_follower", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let follower = try await account(request, caller, context)
            let current = try await StoreCall.call(context) { try await context.store.followers(ownerID: caller.accountID) }
            guard current.count < maximumFollowers || current.contains(where: { $0.accountID == follower }) else {
                throw WireError(.quotaExceeded, "at most \(maximumFollowers) followers; revoke some first")
            }
            let added = try await StoreCall.call(context) {
                try await context.store.allowFollower(ownerID: caller.accountID, followerID: follower, now: context.clock.now())
            }
            return HandlerResult(["account_id": .number(Double(follower)), "added": .bool(added)])
        }
        router.add("revoke_follower", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let follower = try request.integer("account_id", in: 1...Int64.max)
            let removed = try await StoreCall.call(context) {
                try await context.store.revokeFollower(ownerID: caller.accountID, followerID: follower)
            }
            return HandlerResult(["removed": .bool(removed)])
        }
        router.add("list_followers", requiresLogin: true) { _, environment, context throws(WireError) in
            let followers = try await StoreCall.call(context) { try await context.store.followers(ownerID: environment.caller!.accountID) }
            return HandlerResult(["followers": .array(followers.map { follower in
                .object(["account_id": .number(Double(follower.accountID)), "since": .number(Double(follower.since))])
            })])
        }
        router.add("list_following", requiresLogin: true) { _, environment, context throws(WireError) in
            let owners = try await StoreCall.call(context) { try await context.store.following(followerID: environment.caller!.accountID) }
            return HandlerResult(["owner_ids": .array(owners.map { .number(Double($0)) })])
        }
    }

    /// The active account named by `email` (or `account_id`), which is not the caller.
    static func account(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64 {
        let found: AccountRecord?
        if request.fields["email"] != nil {
            let email = try AuthHandlers.email(request)
            found = try await StoreCall.call(context) { try await context.store.account(email: email) }
        } else {
            let id = try request.integer("account_id", in: 1...Int64.max)
            found = try await StoreCall.call(context) { try await context.store.account(id: id) }
        }
        guard let found, found.isActive else { throw WireError(.notFound, "no such account") }
        guard found.id != caller.accountID else { throw .invalid("email", "is you; you always see your own routes") }
        return found.id
    }
}
