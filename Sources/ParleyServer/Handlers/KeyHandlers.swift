import Crypto
import Foundation
import ParleyWire

/// `get_key_bundle`, `get_identity_keys`, `ensure_prekeys`, `get_prekey_count`.
enum KeyHandlers {
    static func register(in router: inout RequestRouter) {
        router.add(API.GetKeyBundle.self) { request, environment, context throws(WireError) in
            try await keyBundle(request, for: environment.account.accountID, context)
        }
        router.add(API.GetIdentityKeys.self) { request, environment, context throws(WireError) in
            try await identityKeys(request, environment.account, context)
        }
        router.add(API.EnsurePreKeys.self) { request, environment, context throws(WireError) in
            try await ensurePreKeys(request, environment.account, context)
        }
        router.add(API.GetPreKeyCount.self) { _, environment, context throws(WireError) in
            let caller = environment.account
            let count = try await StoreCall.call(context) {
                try await context.store.oneTimePreKeyCount(accountID: caller.accountID, deviceID: caller.deviceID)
            }
            return API.PreKeyCount(count: Int64(count))
        }
    }

    /// Bundles one account may take with one-time prekeys from another in `oneTimeWindow`; past them, bundles come
    /// without one (PQXDH starts a session without it), so nobody can empty another account's one-time prekeys by
    /// asking for bundles over and over (found by an outside probe: five in seconds, a thousand in twenty).
    static let oneTimePerRequester = 10
    static let oneTimeWindow: Int64 = 24 * 60 * 60 * 1000

    /// Whether `requester` may take one-time prekeys of `target` now, counting this time (`WindowedCount`, `opk:A B`).
    static func mayTakeOneTime(_ requester: Int64, of target: Int64, _ context: ServerContext) async throws -> Bool {
        guard requester != target else { return true }
        let wait = try await WindowedCount.take(
            "opk:\(requester) \(target)", limit: oneTimePerRequester, window: oneTimeWindow, now: context.clock.now(), context.store)
        return wait == nil
    }

    static func keyBundle(
        _ request: API.GetKeyBundle.Request, for requester: Int64, _ context: ServerContext
    ) async throws(WireError) -> API.GetKeyBundle.Response {
        // By e-mail (starting a conversation) or by account id (a member of a group whose e-mail the
        // caller may not know, or a device the server reported missing in `stale_devices`).
        let accountID = request.accountID
        let email = try request.email.map { text throws(WireError) in try IdentityText.email(text) }
        let (account, bundles) = try await StoreCall.call(context) { () async throws -> (AccountRecord?, [KeyBundle]) in
            let found = if let accountID { try await context.store.account(id: accountID) } else { try await context.store.account(email: email!) }
            guard let account = found, account.isActive else { return (nil, []) }
            let oneTime = try await mayTakeOneTime(requester, of: account.id, context)
            return (account, try await context.store.takeKeyBundles(accountID: account.id, takingOneTime: oneTime))
        }
        guard let account else { throw WireError(.notFound, "no such account") }
        return API.GetKeyBundle.Response(accountID: account.id, identityKey: account.identityKey, devices: bundles.map(wire))
    }

    /// Who hears that `accountID`'s identity key changed (`keys_updated`) and may ask for it (`get_identity_keys`): its
    /// contacts, and the people a request between them is still waiting for (each already writes to the other's key).
    static func keyWatchers(of accountID: Int64, _ store: any Store) async throws -> Set<Int64> {
        Set(try await store.contactIDs(accountID: accountID)).union(try await store.requestPartners(accountID: accountID))
    }

    /// The identity keys of the asked-for accounts that are active and the caller's key watchers (`keyWatchers`).
    /// Reading the contacts costs in proportion to how many the caller has (an account in 1,000 groups of 257 has about
    /// 257,000), so it is paid for and paced from the listing allowance as `list_conversations` is.
    static func identityKeys(_ request: API.GetIdentityKeys.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.GetIdentityKeys.Response {
        let asked = Array(Set(request.accountIDs)).sorted()
        return try await context.listingAllowance.listing(accountID: caller.accountID, clock: context.clock) { () async throws(WireError) in
            let found = try await StoreCall.call(context) { () async throws -> ([API.GetIdentityKeys.Entry], Int) in
                let contacts = try await keyWatchers(of: caller.accountID, context.store)
                var keys: [API.GetIdentityKeys.Entry] = []
                for id in asked where contacts.contains(id) {
                    guard let account = try await context.store.account(id: id), account.isActive else { continue }
                    keys.append(.init(accountID: id, identityKey: account.identityKey))
                }
                return (keys, contacts.count)
            }
            return (API.GetIdentityKeys.Response(keys: found.0), found.1 + asked.count)
        }
    }

    static func wire(_ bundle: KeyBundle) -> API.DeviceBundle {
        func signed(_ key: PreKeyUpload.Signed) -> API.SignedPreKey {
            API.SignedPreKey(id: key.id, publicKey: key.publicKey, signature: key.signature)
        }
        return API.DeviceBundle(
            deviceID: bundle.deviceID, signed: signed(bundle.signedPreKey), pq: signed(bundle.pqPreKey),
            oneTime: bundle.oneTimePreKey.map { API.OneTimePreKey(id: $0.id, key: $0.publicKey) })
    }

    static func ensurePreKeys(_ request: API.EnsurePreKeys.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.PreKeyCount {
        let account = try await StoreCall.call(context) { try await context.store.account(id: caller.accountID) }
        guard let account else { throw WireError(.notFound, "the account no longer exists") }
        let upload = try PreKeyFields.verified(signed: request.signed, pq: request.pq, oneTime: request.oneTime, identityKey: account.identityKey)
        let limit = API.OneTimePreKey.maximumStoredPerDevice
        let addition = try await StoreCall.call(context) {
            try await context.store.addPreKeys(
                accountID: caller.accountID, deviceID: caller.deviceID, signed: upload.signed, pq: upload.pq,
                oneTime: upload.oneTime, maximumOneTime: limit)
        }
        switch addition {
        case .added(let count):
            return API.PreKeyCount(count: Int64(count))
        case .tooMany(let stored):
            throw WireError(.quotaExceeded,
                            "this device already has \(stored) one-time prekeys on the server, which keeps at most \(limit); "
                                + "upload more once others have used some (get_prekey_count)")
        }
    }
}
