import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Key recovery for a person who lost every device: `recovery_start` e-mails a code, `recovery_finish`
/// trades the code for the account's password-sealed key envelope (docs/API.md §3). The envelope opens
/// only with the password; with the keys inside, the client proves the login key in `add_device`.
///
/// So the server hands an envelope only to someone who reads the account's e-mail, never to whoever merely
/// knows the address: offline guessing of the password needs the mailbox first.
enum Recovery {
    static func register(in router: inout RequestRouter) {
        router.add(API.RecoveryStart.self) { request, environment, context throws(WireError) in
            try await start(request, environment, context)
        }
        router.add(API.RecoveryFinish.self) { request, environment, context throws(WireError) in
            try await finish(request, environment, context)
        }
    }

    /// A recovery code is hashed with its own label, so it can never pass as a registration code.
    static func codeHash(email: String, code: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("recovery:\(email):\(code)".utf8)))
    }

    /// Sends a code when the account exists, is active and keeps a key envelope; answers the same either way.
    static func start(_ request: API.RecoveryStart.Request, _ environment: RequestEnvironment, _ context: ServerContext) async throws(WireError) -> API.CodeSent {
        let email = try IdentityText.email(request.email)
        let now = context.clock.now()
        let answer = API.CodeSent(status: "code_sent", expiresIn: AuthHandlers.codeLifetime / 1000)
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            // One request a minute per address, whoever has it or not: the mailbox is not a target for flooding, and
            // a limit only accounts met told a stranger which addresses have one (found by an outside probe).
            if let wait = try await WindowedCount.take("recovery-asked:\(email)", limit: 1, window: 60_000, now: now, context.store) {
                let seconds = WindowedCount.seconds(wait)
                throw WireError(.rateLimited, "a code was asked for less than a minute ago; use it, or ask again in \(seconds) s",
                                details: ["retry_after": .int(seconds)])
            }
            guard let account = try await context.store.account(email: email), account.isActive, account.keyEnvelope != nil else {
                return answer
            }
            let code = Registration.verificationCode(context.random)
            try await context.store.saveRecoveryCode(email: email, VerificationRecord(
                codeHash: codeHash(email: email, code: code), expiresAt: now + AuthHandlers.codeLifetime, failedAttempts: 0))
            do {
                try await context.codeSender.send(code: code, to: email)
            } catch {
                context.logger.error("recovery code delivery failed", metadata: ["email": "\(email)"])
                throw WireError(.internal, "the e-mail with the code could not be sent; try again later")
            }
            return answer
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }

    /// Checks the code (15 minutes; wrong ones slow their source, `CodeCheck`) and returns the account id, name, identity key and envelope.
    /// The code stays good until a device joins with the keys (`add_device`): a person who mistypes the
    /// password tries again with the same code. (Handing the envelope out twice gives nothing a first copy
    /// did not: guessing the password offline needs only one.)
    static func finish(
        _ request: API.RecoveryFinish.Request, _ environment: RequestEnvironment, _ context: ServerContext
    ) async throws(WireError) -> API.RecoveryFinish.Response {
        let email = try IdentityText.email(request.email)
        let code = request.code
        let now = context.clock.now()
        do {
            try await LoginLockouts.refuseIfLockedOut(email: email, environment: environment, context: context, now: now)
            let account = try await context.store.account(email: email)
            guard let account, account.isActive, let envelope = account.keyEnvelope,
                  let pending = try await context.store.verification(email: email) else {
                throw WireError(.notFound, "no recovery is waiting for this e-mail (ask for a code with recovery_start)")
            }
            try await CodeCheck.verify(pending, email: email, hash: codeHash(email: email, code: code), again: "ask for a new one",
                                       environment: environment, context: context, now: now)
            return API.RecoveryFinish.Response(
                accountID: account.id, displayName: account.displayName, identityKey: account.identityKey, keyEnvelope: envelope)
        } catch let error as WireError {
            throw error
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }
}
