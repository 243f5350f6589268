import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// `add_device` and `list_devices` (docs/API.md §13); `remove_device` lives with account upkeep.
enum DeviceHandlers {
    static func register(in router: inout RequestRouter) {
        router.add(API.AddDevice.self, loggingIn: { request, environment, context throws(WireError) in
            try await addDevice(request, environment, context)
        })
        router.add(API.ListDevices.self) { _, environment, context throws(WireError) in
            let devices = try await StoreCall.call(context) { try await context.store.devices(accountID: environment.account.accountID) }
            return API.ListDevices.Response(devices: devices.map { device in
                API.DeviceEntry(deviceID: device.deviceID, name: device.name, createdAt: device.createdAt, lastSeen: device.lastSeen)
            })
        }
    }

    /// The answer when an account already holds `API.AddDevice.maximumDevicesPerAccount` devices.
    static var fullAccount: WireError {
        WireError(.quotaExceeded, """
            this account already has \(API.AddDevice.maximumDevicesPerAccount) devices, the most this server allows; \
            remove one you no longer use from a signed-in device ('parley devices remove ID'), or ask the server's operator
            """)
    }

    /// A device name: 1–64 bytes, not blank.
    static func deviceName(_ text: String, field: String) throws(WireError) -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !name.contains(where: { $0.isNewline }) else { throw .invalid(field, "must be a one-line name") }
        return try IdentityText.name(name, field: field)
    }

    static func addDevice(
        _ request: API.AddDevice.Request, _ environment: RequestEnvironment, _ context: ServerContext
    ) async throws(WireError) -> (API.AddDevice.Response, Caller?) {
        guard environment.caller == nil else { throw WireError(.invalidRequest, "this connection is already logged in") }
        let email = try IdentityText.email(request.email)
        let name = try deviceName(request.name, field: "name")
        let nonce = request.nonce
        let signature = request.signature
        let pairing = request.pairing
        let now = context.clock.now()
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            let account = try await context.store.account(email: email)
            var valid = false
            if let account, account.isActive,
                try await context.store.consumeLoginNonce(nonce, accountID: account.id, deviceID: 0, now: now),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: account.authKey)
            {
                valid = key.isValidSignature(signature, for: API.AddDevice.signedMessage(nonce: nonce, email: email, name: name))
            }
            guard let account, valid else {
                let wait = try await LoginLockouts.recordFailure(email: email, environment: environment, context: context, now: now)
                throw WireError(.authenticationFailed, "adding the device failed; you can try again in \(wait) s")
            }
            try Login.refuseIfDisabled(account)
            // Prekey signatures are checked only now: they need the account's identity key.
            let preKeys = try PreKeyFields.verified(request.preKeys, identityKey: account.identityKey)
            if let pairing {
                let record = try await context.store.pairing(id: pairing.pairID, now: now)
                guard let record, record.email == email, record.deviceID == nil,
                    ConstantTime.equals(Array(SHA256.hash(data: pairing.token)), record.tokenHash)
                else { throw WireError(.notFound, "no such pairing (it may have expired, or was used)") }
            }
            try await LoginLockouts.clearAfterSuccess(email: email, environment: environment, context: context)
            guard let device = try await context.store.addDevice(
                accountID: account.id, name: name, preKeys: preKeys, pairingID: pairing?.pairID, limit: API.AddDevice.maximumDevicesPerAccount, now: now)
            else { throw fullAccount }
            // A recovery's code is spent once a device has joined with the keys it unlocked.
            if pairing == nil { try await context.store.deleteVerification(email: email) }
            context.notifications.notify(accountID: account.id, .deviceAdded(.init(deviceID: device.deviceID, name: device.name)))
            return (API.AddDevice.Response(accountID: account.id, deviceID: device.deviceID, createdAt: device.createdAt),
                    Caller(accountID: account.id, deviceID: device.deviceID))
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }
}
