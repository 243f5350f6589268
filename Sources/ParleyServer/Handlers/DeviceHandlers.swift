import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// `add_device` and `list_devices` (docs/API.md §13); `remove_device` lives with account upkeep.
enum DeviceHandlers {
    static let addDeviceContext = Array("Parley-add-device-v1".utf8)

    static func register(in router: inout RequestRouter) {
        router.add("add_device", requiresLogin: false) { request, environment, context throws(WireError) in
            try await addDevice(request, environment, context)
        }
        router.add("list_devices", requiresLogin: true) { _, environment, context throws(WireError) in
            let devices = try await StoreCall.call(context) { try await context.store.devices(accountID: environment.caller!.accountID) }
            return HandlerResult(["devices": .array(devices.map { device in
                ["device_id": .int(device.deviceID), "name": .string(device.name), "created_at": .int(device.createdAt),
                 "last_seen": .int(device.lastSeen)]
            })])
        }
    }

    /// A device name: 1–64 bytes, not blank.
    static func deviceName(_ request: WireRequest, field: String) throws(WireError) -> String {
        let name = try request.string(field, maxBytes: 64).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !name.contains(where: { $0.isNewline }) else { throw .invalid(field, "must be a one-line name") }
        return try IdentityText.name(name, field: field)
    }

    /// The message `add_device` signs with the account's auth key.
    static func signedMessage(nonce: [UInt8], email: String, name: String) -> [UInt8] {
        addDeviceContext + nonce + Array(email.utf8) + Array(name.utf8)
    }

    static func addDevice(_ request: WireRequest, _ environment: RequestEnvironment, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        guard environment.caller == nil else { throw WireError(.invalidRequest, "this connection is already logged in") }
        let email = try AuthHandlers.email(request)
        let name = try deviceName(request, field: "name")
        let nonce = try request.bytes("nonce", count: LoginChallenge.nonceLength)
        let signature = try request.bytes("signature", count: 64)
        let pairID = try request.optionalInteger("pair_id", in: 0...Int64(UInt32.max)).map { UInt32($0) }
        let token = pairID == nil ? nil : try request.bytes("token", count: 32)
        let now = context.clock.now()
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            let account = try await context.store.account(email: email)
            var valid = false
            if let account, account.isActive,
                try await context.store.consumeLoginNonce(nonce, accountID: account.id, deviceID: 0, now: now),
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: account.authKey)
            {
                valid = key.isValidSignature(signature, for: signedMessage(nonce: nonce, email: email, name: name))
            }
            guard let account, valid else {
                let wait = try await LoginLockouts.recordFailure(email: email, environment: environment, context: context, now: now)
                throw WireError(.authenticationFailed, "adding the device failed; you can try again in \(wait) s")
            }
            try Login.refuseIfDisabled(account)
            // Prekeys are checked only now: their signatures need the account's identity key.
            let preKeys = try PreKeyFields.parse(request, identityKey: account.identityKey)
            if let pairID, let token {
                let pairing = try await context.store.pairing(id: pairID, now: now)
                guard let pairing, pairing.email == email, pairing.deviceID == nil,
                    ConstantTime.equals(Array(SHA256.hash(data: token)), pairing.tokenHash)
                else { throw WireError(.notFound, "no such pairing (it may have expired, or was used)") }
            }
            try await LoginLockouts.clearAfterSuccess(email: email, environment: environment, context: context)
            let device = try await context.store.addDevice(accountID: account.id, name: name, preKeys: preKeys, pairingID: pairID, now: now)
            // A recovery's code is spent once a device has joined with the keys it unlocked.
            if pairID == nil { try await context.store.deleteVerification(email: email) }
            context.notifications.notify(
                accountID: account.id, event: "device_added",
                fields: ["device_id": .int(device.deviceID), "name": .string(device.name)])
            return HandlerResult(
                ["account_id": .int(account.id), "device_id": .int(device.deviceID), "created_at": .int(device.createdAt)],
                loggedIn: Caller(accountID: account.id, deviceID: device.deviceID))
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }
}
