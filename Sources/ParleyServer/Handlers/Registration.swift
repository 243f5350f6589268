import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Account creation: `register` sends a code, `register_confirm` activates the account.
enum Registration {
    /// A key envelope the server keeps for recovery: it cannot open one (it never sees a password), but it keeps only
    /// what has an ECP1 envelope's structure, so a client that sent garbage hears so now rather than at recovery.
    static func keyEnvelope(_ bytes: [UInt8]?) throws(WireError) -> [UInt8]? {
        guard let bytes else { return nil }
        guard ParleyCrypto.KeyEnvelope.isWellFormed(bytes) else { throw .invalid("key_envelope", "must be an ECP1 key envelope") }
        return bytes
    }

    static func register(_ request: API.Register.Request, _ environment: RequestEnvironment, _ context: ServerContext) async throws(WireError) -> API.CodeSent {
        let email = try IdentityText.newEmail(request.email)
        let displayName = try IdentityText.name(request.displayName, field: "display_name")
        guard !displayName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalid("display_name", "must not be empty")
        }
        let identityKey = request.identityKey
        let authKey = request.authKey
        let keyEnvelope = try keyEnvelope(request.keyEnvelope)
        // The same rule as a device added later (pairing, recovery): one line, no terminal controls.
        let deviceName = try request.deviceName.map { name throws(WireError) in try DeviceHandlers.deviceName(name, field: "device_name") }
            ?? "device 1"
        let preKeys = try PreKeyFields.verified(request.preKeys, identityKey: identityKey)
        let now = context.clock.now()
        let invite = try await Invitation.required(request.invite, context, now: now)

        try await requireProofOfWorkIfSurging(request.proofOfWork, context, now: now)

        let code = verificationCode(context.random)
        let account = NewAccount(
            email: email, displayName: displayName, identityKey: identityKey, authKey: authKey,
            keyEnvelope: keyEnvelope, deviceName: deviceName, preKeys: preKeys)
        // An address that already has an account gets the same answer as a new one (nothing tells a stranger
        // who is registered), after the same kind of store write; its owner is told someone tried.
        var existing = false
        do {
            _ = try await context.store.createPendingAccount(
                account, verification: VerificationRecord(codeHash: codeHash(email: email, code: code),
                expiresAt: now + AuthHandlers.codeLifetime, failedAttempts: 0), now: now)
        } catch StoreError.conflict(_) {
            existing = true
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        do {
            if existing {
                try await context.store.recordRegistrationAttempt(now: now)
            } else if let invite {
                try await context.store.holdInvite(invite, for: email)
            }
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        do {
            if existing {
                try await context.codeSender.sendRegistrationAttempt(to: email)
            } else {
                try await context.codeSender.send(code: code, to: email)
            }
        } catch {
            context.logger.error("verification e-mail delivery failed", metadata: ["email": "\(email)"])
            throw WireError(.internal, "the verification e-mail could not be sent; try again later")
        }
        return API.CodeSent(status: "verification_sent", expiresIn: AuthHandlers.codeLifetime / 1000)
    }

    static func confirm(
        _ request: API.RegisterConfirm.Request, _ environment: RequestEnvironment, _ context: ServerContext
    ) async throws(WireError) -> API.AccountDevice {
        let email = try IdentityText.email(request.email)
        let code = request.code
        let now = context.clock.now()
        let hash = codeHash(email: email, code: code)
        do {
            // An active account's only pending code is a recovery code: wrong tries here must not use it up.
            // An active account and an address nobody registered answer as a wrong code does, so confirming
            // reveals no more than registering.
            let active = try await context.store.account(email: email)?.isActive == true
            guard !active, let pending = try await context.store.verification(email: email) else {
                // Counted and slowed as a wrong code for a pending registration is.
                try await CodeCheck.refuseIfGuessingTooFast(email: email, environment: environment, context: context, now: now)
                throw try await CodeCheck.recordWrongCode(email: email, again: again, environment: environment, context: context, now: now)
            }
            try await CodeCheck.verify(pending, email: email, hash: hash, again: again, environment: environment, context: context, now: now)
            try await Invitation.activate(email: email, context, now: now)
            guard let account = try await context.store.account(email: email) else {
                throw WireError(.internal, "the account vanished during confirmation; register again")
            }
            return API.AccountDevice(accountID: account.id, deviceID: 1)
        } catch let error as WireError {
            guard error.code == .authenticationFailed else { throw error }
            throw WireError(error.code, error.message + noCodeHint, details: error.details)
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
    }

    static let again = "register again to get a new one"
    /// Said with every wrong code: the owner of an address that has an account gets a notice, not a code.
    static let noCodeHint = ". If no code reached you, this address may already have a Parley account: use it from a device that has it, or sign in on this one with 'parley account login'"

    /// During a surge, `register` must carry a solved challenge; otherwise it gets one.
    static func requireProofOfWorkIfSurging(_ answer: API.ProofOfWorkAnswer?, _ context: ServerContext, now: Int64) async throws(WireError) {
        let recent: Int
        do {
            recent = try await context.store.registrationCount(since: now - 60_000)
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        guard recent >= context.configuration.registrationSurgeThreshold else { return }
        let difficulty = context.configuration.proofOfWorkDifficulty
        if let answer, context.proofOfWork.redeem(challenge: answer.challenge, nonce: answer.nonce, difficulty: difficulty, now: now) {
            return
        }
        let challenge = context.proofOfWork.issue(now: now)
        throw WireError(
            .proofOfWorkRequired,
            "registrations are busy right now: solve the proof-of-work challenge in details and send register again with pow_challenge and pow_nonce",
            details: ["pow_challenge": .string(Data(challenge).base64EncodedString()), "pow_difficulty": .number(Double(difficulty))])
    }

    /// An 8-digit code from the injected random source.
    static func verificationCode(_ random: any RandomSource) -> String {
        let value = random.bytes(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } % 100_000_000
        let digits = String(value)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Codes are stored only as SHA-256(email || ":" || code).
    static func codeHash(email: String, code: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("\(email):\(code)".utf8)))
    }
}
