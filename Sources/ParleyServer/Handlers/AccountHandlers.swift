import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Account upkeep: password envelope, username, key rotation, device removal.
enum AccountHandlers {
    static func register(in router: inout RequestRouter) {
        router.add(API.ChangePassword.self) { request, environment, context throws(WireError) in
            // The server never sees a password: only the client's new ECP1 envelope, if it keeps one here.
            let envelope = try Registration.keyEnvelope(request.keyEnvelope)
            try await StoreCall.call(context) { try await context.store.setKeyEnvelope(accountID: environment.account.accountID, envelope) }
            return NoFields()
        }
        router.add(API.GetKeyEnvelope.self) { _, environment, context throws(WireError) in
            let account = try await StoreCall.call(context) { try await context.store.account(id: environment.account.accountID) }
            guard let envelope = account?.keyEnvelope else { throw WireError(.notFound, "no key envelope is stored for this account") }
            return API.KeyEnvelopeBody(keyEnvelope: envelope)
        }
        router.add(API.ChangeUsername.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let username = request.username
            let holder = try await StoreCall.call(context) { try await context.store.accountID(username: username) }
            guard holder == nil || holder == caller.accountID else { throw WireError(.conflict, "this username is taken") }
            let visibility = request.visibility ?? .everyone
            try await StoreCall.call(context) {
                try await context.store.setProfileFields(accountID: caller.accountID, [ProfileField(name: "username", value: username, visibility: visibility)])
            }
            return API.ChangeUsername.Response(username: username)
        }
        router.add(API.RotateKeys.self) { request, environment, context throws(WireError) in
            try await rotate(request, environment.account, context)
            return NoFields()
        }
        router.add(API.RemoveDevice.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let deviceID = request.deviceID
            guard deviceID != caller.deviceID else { throw .invalid("device_id", "is this device; remove it from another device") }
            let device = try await StoreCall.call(context) { try await context.store.device(accountID: caller.accountID, deviceID: deviceID) }
            guard device != nil else { throw WireError(.notFound, "no such device") }
            try await StoreCall.call(context) { try await context.store.removeDevice(accountID: caller.accountID, deviceID: deviceID) }
            context.notifications.disconnect(accountID: caller.accountID, deviceID: deviceID)
            context.notifications.notify(accountID: caller.accountID, .deviceRemoved(.init(deviceID: deviceID)))
            return NoFields()
        }
        router.add(API.SignOut.self) { _, environment, context throws(WireError) in
            // The device leaves the account for good: its prekeys and pending ciphertexts go, and senders stop
            // encrypting to it (`stale_devices`). Its connections close once this answer is written.
            let caller = environment.account
            try await StoreCall.call(context) { try await context.store.removeDevice(accountID: caller.accountID, deviceID: caller.deviceID) }
            context.notifications.disconnect(accountID: caller.accountID, deviceID: caller.deviceID)  // after this answer
            context.notifications.notify(accountID: caller.accountID, .deviceRemoved(.init(deviceID: caller.deviceID)))
            return NoFields()
        }
    }

    /// New identity and auth keys: other devices are logged out and must re-upload prekeys signed by
    /// the new identity key; contacts and people a request between them waits for hear `keys_updated` and must verify the new key.
    static func rotate(_ request: API.RotateKeys.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) {
        let identityKey = request.identityKey
        let authKey = request.authKey
        let preKeys = try PreKeyFields.verified(request.preKeys, identityKey: identityKey)
        try await StoreCall.call(context) {
            try await context.store.rotateKeys(
                accountID: caller.accountID, deviceID: caller.deviceID, identityKey: identityKey, authKey: authKey, preKeys: preKeys)
        }
        context.notifications.disconnect(accountID: caller.accountID, except: caller.deviceID)
        let watchers = try await StoreCall.call(context) { try await KeyHandlers.keyWatchers(of: caller.accountID, context.store) }
        for contact in watchers.sorted() {
            context.notifications.notify(accountID: contact, .keysUpdated(.init(accountID: caller.accountID)))
        }
    }
}
