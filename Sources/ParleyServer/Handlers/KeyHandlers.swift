import Crypto
import Foundation
import ParleyWire

/// `get_key_bundle`, `ensure_prekeys`, `get_prekey_count`.
enum KeyHandlers {
    static func register(in router: inout RequestRouter) {
        router.add("get_key_bundle", requiresLogin: true) { request, _, context throws(WireError) in
            try await keyBundle(request, context)
        }
        router.add("ensure_prekeys", requiresLogin: true) { request, environment, context throws(WireError) in
            try await ensurePreKeys(request, environment.caller!, context)
        }
        router.add("get_prekey_count", requiresLogin: true) { _, environment, context throws(WireError) in
            let caller = environment.caller!
            let count = try await StoreCall.call(context) {
                try await context.store.oneTimePreKeyCount(accountID: caller.accountID, deviceID: caller.deviceID)
            }
            return HandlerResult(["count": .number(Double(count))])
        }
    }

    static func keyBundle(_ request: WireRequest, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        // By e-mail (starting a conversation) or by account id (a member of a group whose e-mail the
        // caller may not know, or a device the server reported missing in `stale_devices`).
        let accountID = try request.optionalInteger("account_id", in: 1...Int64(1 << 53))
        let email = accountID == nil ? try AuthHandlers.email(request) : nil
        let (account, bundles) = try await StoreCall.call(context) { () async throws -> (AccountRecord?, [KeyBundle]) in
            let found = if let accountID { try await context.store.account(id: accountID) } else { try await context.store.account(email: email!) }
            guard let account = found, account.isActive else { return (nil, []) }
            return (account, try await context.store.takeKeyBundles(accountID: account.id))
        }
        guard let account else { throw WireError(.notFound, "no such account") }
        return HandlerResult([
            "account_id": .number(Double(account.id)),
            "identity_key": .string(Data(account.identityKey).base64EncodedString()),
            "devices": .array(bundles.map(json)),
        ])
    }

    static func json(_ bundle: KeyBundle) -> JSONValue {
        func base64(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }
        var device: [String: JSONValue] = [:]
        device["device_id"] = .number(Double(bundle.deviceID))
        device["spk_id"] = .number(Double(bundle.signedPreKey.id))
        device["spk"] = base64(bundle.signedPreKey.publicKey)
        device["spk_signature"] = base64(bundle.signedPreKey.signature)
        device["pqspk_id"] = .number(Double(bundle.pqPreKey.id))
        device["pqspk"] = base64(bundle.pqPreKey.publicKey)
        device["pqspk_signature"] = base64(bundle.pqPreKey.signature)
        if let opk = bundle.oneTimePreKey {
            device["opk_id"] = .number(Double(opk.id))
            device["opk"] = base64(opk.publicKey)
        }
        return .object(device)
    }

    static func ensurePreKeys(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let account = try await StoreCall.call(context) { try await context.store.account(id: caller.accountID) }
        guard let account else { throw WireError(.notFound, "the account no longer exists") }
        let upload = try PreKeyFields.parseOptional(request, identityKey: account.identityKey)
        try await StoreCall.call(context) {
            try await context.store.addPreKeys(
                accountID: caller.accountID, deviceID: caller.deviceID, signed: upload.signed, pq: upload.pq,
                oneTime: upload.oneTime)
        }
        let count = try await StoreCall.call(context) {
            try await context.store.oneTimePreKeyCount(accountID: caller.accountID, deviceID: caller.deviceID)
        }
        return HandlerResult(["count": .number(Double(count))])
    }
}

