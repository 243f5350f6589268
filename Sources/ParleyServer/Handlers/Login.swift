import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Challenge–response login; failures are counted by `LoginLockouts`.
enum Login {
    static func start(_ request: API.LoginStart.Request, _ environment: RequestEnvironment, _ context: ServerContext) async throws(WireError) -> API.LoginStart.Response {
        let email = try IdentityText.email(request.email)
        // Device 0 asks for a nonce to sign `add_device` with (docs/API.md §13).
        let deviceID = request.deviceID
        let now = context.clock.now()
        let nonce = context.random.bytes(LoginChallenge.nonceLength)
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            // Unknown accounts and devices get a nonce too, so login_start does not reveal who exists.
            if let account = try await context.store.account(email: email), account.isActive {
                let deviceExists = try await context.store.device(accountID: account.id, deviceID: deviceID) != nil
                guard deviceID == 0 || deviceExists else { return nonceResult(nonce) }
                try await context.store.saveLoginNonce(
                    nonce, accountID: account.id, deviceID: deviceID, expiresAt: now + AuthHandlers.nonceLifetime)
            }
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        return nonceResult(nonce)
    }

    /// The answer for a disabled account (docs/OPERATIONS.md §8).
    static func refuseIfDisabled(_ account: AccountRecord) throws(WireError) {
        guard account.disabledAt == nil else { throw WireError(.forbidden, "this account is disabled; ask the server's operator") }
    }

    static func nonceResult(_ nonce: [UInt8]) -> API.LoginStart.Response {
        API.LoginStart.Response(nonce: nonce, expiresIn: AuthHandlers.nonceLifetime / 1000)
    }

    static func finish(
        _ request: API.LoginFinish.Request, _ environment: RequestEnvironment, _ context: ServerContext
    ) async throws(WireError) -> (API.AccountDevice, Caller?) {
        let email = try IdentityText.email(request.email)
        let deviceID = request.deviceID
        let nonce = request.nonce
        let signature = request.signature
        let pushesEnvelopes = request.pushEnvelopes ?? false
        let now = context.clock.now()
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            let account = try await context.store.account(email: email)
            var valid = false, deviceExists = false
            if let account, account.isActive {
                deviceExists = try await context.store.device(accountID: account.id, deviceID: deviceID) != nil
                if try await context.store.consumeLoginNonce(nonce, accountID: account.id, deviceID: deviceID, now: now),
                    let key = try? Curve25519.Signing.PublicKey(rawRepresentation: account.authKey)
                {
                    valid = key.isValidSignature(signature, for: LoginChallenge.message(nonce: nonce, email: email, deviceID: deviceID))
                }
            }
            guard let account, valid else {
                // Only a wrong signature for a real device counts toward the lockout: there is no key to
                // guess for a removed or unknown device, and its retries must not lock out the account's
                // other devices. The answer is the same either way.
                let wait = deviceExists ? try await LoginLockouts.recordFailure(email: email, environment: environment, context: context, now: now) : 0
                throw WireError(.authenticationFailed, "login failed; you can try again in \(wait) s")
            }
            try await LoginLockouts.clearAfterSuccess(email: email, environment: environment, context: context)
            // Said only to whoever proved they hold the account's key: others learn nothing of its state.
            try refuseIfDisabled(account)
            return (API.AccountDevice(accountID: account.id, deviceID: deviceID),
                    Caller(accountID: account.id, deviceID: deviceID, pushesEnvelopes: pushesEnvelopes))
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }
}
