import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Account upkeep: password envelope, username, key rotation, device removal.
enum AccountHandlers {
    static func register(in router: inout RequestRouter) {
        router.add("change_password", requiresLogin: true) { request, environment, context throws(WireError) in
            // The server never sees a password: only the client's new ECP1 envelope, if it keeps one here.
            let envelope = try request.optionalBytes("key_envelope", maxBytes: 64 * 1024)
            if let envelope, [UInt8](envelope.prefix(4)) != ParleyCrypto.KeyEnvelope.magic {
                throw .invalid("key_envelope", "must be an ECP1 key envelope")
            }
            try await StoreCall.call(context) { try await context.store.setKeyEnvelope(accountID: environment.caller!.accountID, envelope) }
            return HandlerResult()
        }
        router.add("get_key_envelope", requiresLogin: true) { _, environment, context throws(WireError) in
            let account = try await StoreCall.call(context) { try await context.store.account(id: environment.caller!.accountID) }
            guard let envelope = account?.keyEnvelope else { throw WireError(.notFound, "no key envelope is stored for this account") }
            return HandlerResult(["key_envelope": .string(Data(envelope).base64EncodedString())])
        }
        router.add("change_username", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let username = try request.string("username", maxBytes: 32).lowercased()
            guard username.count >= 3, username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }) else {
                throw .invalid("username", "must be 3–32 characters of a–z, 0–9, '_' and '.'")
            }
            let holder = try await StoreCall.call(context) { try await context.store.accountID(username: username) }
            guard holder == nil || holder == caller.accountID else { throw WireError(.conflict, "this username is taken") }
            let visibility = try request.optionalString("visibility", maxBytes: 16).map { text throws(WireError) -> Visibility in
                guard let value = Visibility(rawValue: text) else { throw .invalid("visibility", "must be everyone, contacts or nobody") }
                return value
            } ?? .everyone
            try await StoreCall.call(context) {
                try await context.store.setProfileFields(accountID: caller.accountID, [ProfileField(name: "username", value: username, visibility: visibility)])
            }
            return HandlerResult(["username": .string(username)])
        }
        router.add("rotate_keys", requiresLogin: true) { request, environment, context throws(WireError) in
            try await rotate(request, environment.caller!, context)
        }
        router.add("remove_device", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let deviceID = UInt32(try request.integer("device_id", in: 1...Int64(UInt32.max)))
            guard deviceID != caller.deviceID else { throw .invalid("device_id", "is this device; remove it from another device") }
            let device = try await StoreCall.call(context) { try await context.store.device(accountID: caller.accountID, deviceID: deviceID) }
            guard device != nil else { throw WireError(.notFound, "no such device") }
            try await StoreCall.call(context) { try await context.store.removeDevice(accountID: caller.accountID, deviceID: deviceID) }
            context.notifications.disconnect(accountID: caller.accountID, deviceID: deviceID)
            context.notifications.notify(accountID: caller.accountID, event: "device_removed", fields: ["device_id": .int(deviceID)])
            return HandlerResult()
        }
        router.add("sign_out", requiresLogin: true) { _, environment, context throws(WireError) in
            // The device leaves the account for good: its prekeys and pending ciphertexts go, and senders stop
            // encrypting to it (`stale_devices`). Its connections close once this answer is written.
            let caller = environment.caller!
            try await StoreCall.call(context) { try await context.store.removeDevice(accountID: caller.accountID, deviceID: caller.deviceID) }
            context.notifications.disconnect(accountID: caller.accountID, deviceID: caller.deviceID)  // after this answer
            context.notifications.notify(accountID: caller.accountID, event: "device_removed", fields: ["device_id": .int(caller.deviceID)])
            return HandlerResult()
        }
    }

    /// New identity and auth keys: other devices are logged out and must re-upload prekeys signed by
    /// the new identity key; contacts hear `keys_updated` and must verify the new key.
    static func rotate(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let identityKey = try request.bytes("identity_key", count: 32)
        let authKey = try request.bytes("auth_key", count: 32)
        let preKeys = try PreKeyFields.parse(request, identityKey: identityKey)
        try await StoreCall.call(context) {
            try await context.store.rotateKeys(
                accountID: caller.accountID, deviceID: caller.deviceID, identityKey: identityKey, authKey: authKey, preKeys: preKeys)
        }
        context.notifications.disconnect(accountID: caller.accountID, except: caller.deviceID)
        let contacts = try await StoreCall.call(context) { try await context.store.contactIDs(accountID: caller.accountID) }
        for contact in contacts {
            context.notifications.notify(accountID: contact, event: "keys_updated", fields: ["account_id": .number(Double(caller.accountID))])
        }
        return HandlerResult()
    }
}
