import Foundation
@testable import ParleyServer
import Testing

/// `AccountStore` behaviour, identical on every backend.
@Suite("Store conformance: accounts, nonces, lockouts")
struct AccountConformanceTests {
    @Test("a pending account is replaced by a new registration; an active one is a conflict", arguments: StoreBackend.allCases)
    func pendingReplaceAndConflict(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let first = try await store.createPendingAccount(Sample.account("ann@example.org"), verification: Sample.verification(), now: 1)
            _ = try await store.recordWrongCode(email: "ann@example.org")
            var replacement = Sample.account("ann@example.org")
            replacement.displayName = "Ann Again"
            let second = try await store.createPendingAccount(replacement, verification: Sample.verification(expiresAt: 20_000), now: 2)
            #expect(second != first)
            #expect(try await store.account(id: first) == nil)
            let account = try #require(try await store.account(email: "ann@example.org"))
            #expect(account.displayName == "Ann Again")
            #expect(!account.isActive)
            // The re-request resets the wrong-code count and the expiry.
            #expect(try await store.verification(email: "ann@example.org") == VerificationRecord(
                codeHash: Sample.verification().codeHash, expiresAt: 20_000, failedAttempts: 0))
            #expect(try await store.registrationCount(since: 0) == 2)
            #expect(try await store.registrationCount(since: 2) == 1)

            try await store.activateAccount(email: "ann@example.org")
            #expect(try await store.account(email: "ann@example.org")?.isActive == true)
            #expect(try await store.verification(email: "ann@example.org") == nil)
            await #expect(throws: StoreError.conflict("an account with this e-mail")) {
                _ = try await store.createPendingAccount(Sample.account("ann@example.org"), verification: Sample.verification(), now: 3)
            }
            // A register for the existing address counts toward the surge like a registration.
            try await store.recordRegistrationAttempt(now: 4)
            #expect(try await store.registrationCount(since: 4) == 1)
        }
    }

    @Test("a recovery code is saved for an active account, and a new one replaces it with the tries reset", arguments: StoreBackend.allCases)
    func recoveryCode(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            _ = try await Sample.activeAccount(store, "ann@example.org", now: 5)
            try await store.saveRecoveryCode(email: "ann@example.org", VerificationRecord(codeHash: [1, 2, 3], expiresAt: 100, failedAttempts: 0))
            #expect(try await store.recordWrongCode(email: "ann@example.org") == 1)
            try await store.saveRecoveryCode(email: "ann@example.org", VerificationRecord(codeHash: [4, 5, 6], expiresAt: 200, failedAttempts: 0))
            #expect(try await store.verification(email: "ann@example.org") == VerificationRecord(codeHash: [4, 5, 6], expiresAt: 200, failedAttempts: 0))
            #expect(try await store.account(email: "ann@example.org")?.isActive == true)
            try await store.deleteVerification(email: "ann@example.org")
            #expect(try await store.verification(email: "ann@example.org") == nil)
        }
    }

    @Test("an account keeps its keys, envelope and first device", arguments: StoreBackend.allCases)
    func accountRecordRoundTrip(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "bob@example.org", now: 5)
            let account = try #require(try await store.account(id: id))
            #expect(account == AccountRecord(
                id: id, email: "bob@example.org", displayName: "bob", identityKey: Sample.bytes(32, 7), authKey: Sample.bytes(32, 8),
                keyEnvelope: Sample.bytes(80, 9), isActive: true))
            #expect(try await store.devices(accountID: id) == [DeviceRecord(accountID: id, deviceID: 1, name: "laptop", createdAt: 5, lastSeen: 5)])
            #expect(try await store.device(accountID: id, deviceID: 1)?.name == "laptop")
            #expect(try await store.device(accountID: id, deviceID: 2) == nil)
            try await store.setKeyEnvelope(accountID: id, nil)
            #expect(try await store.account(id: id)?.keyEnvelope == nil)
            try await store.setKeyEnvelope(accountID: id, [1, 2, 3])
            #expect(try await store.account(id: id)?.keyEnvelope == [1, 2, 3])
            #expect(try await store.account(email: "nobody@example.org") == nil)
            #expect(try await store.account(id: 999_999) == nil)
        }
    }

    @Test("wrong codes count up; deleting a verification forgets it", arguments: StoreBackend.allCases)
    func wrongCodes(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            _ = try await store.createPendingAccount(Sample.account("cy@example.org"), verification: Sample.verification(), now: 1)
            #expect(try await store.recordWrongCode(email: "cy@example.org") == 1)
            #expect(try await store.recordWrongCode(email: "cy@example.org") == 2)
            #expect(try await store.verification(email: "cy@example.org")?.failedAttempts == 2)
            try await store.deleteVerification(email: "cy@example.org")
            #expect(try await store.verification(email: "cy@example.org") == nil)
            #expect(try await store.recordWrongCode(email: "cy@example.org") == 0)
        }
    }

    @Test("a login nonce works once, only for its device, and only before it expires", arguments: StoreBackend.allCases)
    func nonces(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "dee@example.org")
            let nonce = Sample.bytes(32, 40)
            try await store.saveLoginNonce(nonce, accountID: id, deviceID: 1, expiresAt: 60_000)
            #expect(try await store.consumeLoginNonce(nonce, accountID: id, deviceID: 1, now: 59_999))
            #expect(try await !store.consumeLoginNonce(nonce, accountID: id, deviceID: 1, now: 59_999))

            let expired = Sample.bytes(32, 41)
            try await store.saveLoginNonce(expired, accountID: id, deviceID: 1, expiresAt: 60_000)
            #expect(try await !store.consumeLoginNonce(expired, accountID: id, deviceID: 1, now: 60_001))
            // A failed use still burns the nonce.
            #expect(try await !store.consumeLoginNonce(expired, accountID: id, deviceID: 1, now: 0))

            let other = Sample.bytes(32, 42)
            try await store.saveLoginNonce(other, accountID: id, deviceID: 1, expiresAt: 60_000)
            #expect(try await !store.consumeLoginNonce(other, accountID: id, deviceID: 2, now: 0))
            #expect(try await !store.consumeLoginNonce(Sample.bytes(32, 43), accountID: id, deviceID: 1, now: 0))
        }
    }

    @Test("of many concurrent logins with one nonce, exactly one succeeds", arguments: StoreBackend.allCases)
    func nonceRace(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "eve@example.org")
            let nonce = Sample.bytes(32, 50)
            try await store.saveLoginNonce(nonce, accountID: id, deviceID: 1, expiresAt: 60_000)
            let successes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { try await store.consumeLoginNonce(nonce, accountID: id, deviceID: 1, now: 1) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(successes == 1)
        }
    }

    @Test("lockouts are saved, replaced and cleared per subject", arguments: StoreBackend.allCases)
    func lockouts(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            #expect(try await store.lockout(subject: "account:1") == nil)
            try await store.saveLockout(subject: "account:1", LockoutRecord(failures: 1, lockedUntil: 2_000))
            try await store.saveLockout(subject: "address:127.0.0.1", LockoutRecord(failures: 3, lockedUntil: 9_000))
            try await store.saveLockout(subject: "account:1", LockoutRecord(failures: 2, lockedUntil: 4_000))
            #expect(try await store.lockout(subject: "account:1") == LockoutRecord(failures: 2, lockedUntil: 4_000))
            try await store.clearLockout(subject: "account:1")
            #expect(try await store.lockout(subject: "account:1") == nil)
            #expect(try await store.lockout(subject: "address:127.0.0.1")?.failures == 3)
        }
    }

    @Test("rotating keys replaces this device's prekeys and drops the others'; removing a device drops its rows", arguments: StoreBackend.allCases)
    func keyUpkeep(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "fay@example.org")
            try await store.rotateKeys(
                accountID: id, deviceID: 1, identityKey: Sample.bytes(32, 60), authKey: Sample.bytes(32, 61),
                preKeys: Sample.preKeys(oneTimeIDs: [10, 11], signedID: 2))
            let account = try #require(try await store.account(id: id))
            #expect(account.identityKey == Sample.bytes(32, 60) && account.authKey == Sample.bytes(32, 61))
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 2)
            let bundle = try #require(try await store.takeKeyBundles(accountID: id).first)
            #expect(bundle.signedPreKey.id == 2 && bundle.oneTimePreKey?.id == 10)

            let nonce = Sample.bytes(32, 62)
            try await store.saveLoginNonce(nonce, accountID: id, deviceID: 1, expiresAt: 60_000)
            try await store.removeDevice(accountID: id, deviceID: 1)
            #expect(try await store.devices(accountID: id).isEmpty)
            #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 0)
            #expect(try await store.takeKeyBundles(accountID: id).isEmpty)
            #expect(try await !store.consumeLoginNonce(nonce, accountID: id, deviceID: 1, now: 0))
        }
    }

    @Test("rotating keys removes every other device of the account, with its nonces and envelopes", arguments: StoreBackend.allCases)
    func rotationRemovesOtherDevices(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ida@example.org")
            let second = try await store.addDevice(
                accountID: id, name: "phone", preKeys: Sample.preKeys(oneTimeIDs: [20], signedID: 5), pairingID: nil, limit: 32, now: 1)!
            try await store.saveLoginNonce(Sample.bytes(32, 70), accountID: id, deviceID: second.deviceID, expiresAt: 60_000)
            #expect(try await store.devices(accountID: id).count == 2)
            try await store.rotateKeys(
                accountID: id, deviceID: 1, identityKey: Sample.bytes(32, 71), authKey: Sample.bytes(32, 72),
                preKeys: Sample.preKeys(oneTimeIDs: [30], signedID: 6))
            #expect(try await store.devices(accountID: id).map(\.deviceID) == [1])
            #expect(try await store.takeKeyBundles(accountID: id).map(\.deviceID) == [1])
            #expect(try await !store.consumeLoginNonce(Sample.bytes(32, 70), accountID: id, deviceID: second.deviceID, now: 0))
        }
    }

    @Test("a username resolves to its account through the profile field", arguments: StoreBackend.allCases)
    func usernames(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "gus@example.org")
            #expect(try await store.accountID(username: "gus") == nil)
            try await store.setProfileFields(accountID: id, [ProfileField(name: "username", value: "gus", visibility: .everyone)])
            #expect(try await store.accountID(username: "gus") == id)
        }
    }

    @Test("saving a login nonce deletes those expiring over two minutes before it, so strangers asking fast leave minutes of them, not hours",
          arguments: StoreBackend.allCases)
    func nonceWindow(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let id = try await Sample.activeAccount(store, "ann@example.org")
            let t0: Int64 = 10_000_000
            // A stranger's login_start every second for ten minutes, each nonce living 60 s.
            for second in Int64(0)..<600 {
                try await store.saveLoginNonce(Sample.bytes(32, UInt8(second % 200)) + Array(String(second).utf8), accountID: id, deviceID: 1,
                                               expiresAt: t0 + second * 1_000 + 60_000)
            }
            let kept = try await store.retainedRowCounts()["login_nonces"] ?? 0
            #expect(kept <= 121 && kept >= 120, "about two minutes of nonces, not ten: \(kept)")
            // The owner's nonce, asked for last, still logs in.
            let owners = Sample.bytes(32, 250)
            try await store.saveLoginNonce(owners, accountID: id, deviceID: 1, expiresAt: t0 + 600_000 + 60_000)
            #expect(try await store.consumeLoginNonce(owners, accountID: id, deviceID: 1, now: t0 + 600_001))
        }
    }
}
