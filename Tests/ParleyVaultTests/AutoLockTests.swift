import Foundation
@testable import ParleyVault
import Testing

@Suite("AutoLock")
struct AutoLockTests {
    @Test("the idle timeout slides with every use")
    func slidingTimeout() throws {
        let clock = ManualClock()
        let key = MainKey.generate()
        let lock = AutoLock(key: key, idleTimeout: 120, clock: clock)
        for _ in 0..<5 {
            clock.advance(100)
            #expect(try lock.withKey { $0 } == key)
        }
        // 500 s since creation but never 120 s idle: still unlocked.
        #expect(!lock.isLocked)
        clock.advance(119)
        #expect(!lock.isLocked)
        clock.advance(1)
        #expect(lock.isLocked)
        #expect(vaultError { try lock.withKey { $0 } } == .locked)
        // Time passing again does not bring the key back.
        clock.advance(1)
        #expect(vaultError { try lock.withKey { $0 } } == .locked)
    }

    @Test("expiry is noticed by withKey too, without isLocked being asked")
    func expiryOnUse() {
        let clock = ManualClock()
        let lock = AutoLock(key: MainKey.generate(), idleTimeout: 10, clock: clock)
        clock.advance(10)
        #expect(vaultError { try lock.withKey { _ in 1 } } == .locked)
        #expect(lock.isLocked)
    }

    @Test("lock() drops the key at once")
    func manualLock() {
        let lock = AutoLock(key: MainKey.generate(), idleTimeout: 3600, clock: ManualClock())
        #expect(!lock.isLocked)
        lock.lock()
        #expect(lock.isLocked)
        #expect(vaultError { try lock.withKey { $0 } } == .locked)
    }

    @Test("a wall clock set back (to dodge the timeout) or forward locks with clockTampered", arguments: [-3600.0, -6, 6, 86_400])
    func tampering(jump: TimeInterval) {
        let clock = ManualClock()
        let lock = AutoLock(key: MainKey.generate(), idleTimeout: 7200, clock: clock)
        clock.advance(30)
        clock.setWall(by: jump)
        #expect(vaultError { try lock.withKey { $0 } } == .clockTampered)
        #expect(lock.isLocked)
        #expect(vaultError { try lock.withKey { $0 } } == .locked)
    }

    @Test("drift within the tolerance is not tampering")
    func tolerance() throws {
        let clock = ManualClock()
        let key = MainKey.generate()
        let lock = AutoLock(key: key, idleTimeout: 7200, clock: clock, tolerance: 5)
        clock.advance(60)
        clock.setWall(by: 4.5)
        #expect(try lock.withKey { $0 } == key)
        // The reference point moved with that use: another 4.5 s of drift is fine again.
        clock.setWall(by: -4.5)
        #expect(try lock.withKey { $0 } == key)
    }

    @Test("a tampered clock is caught by isLocked too")
    func tamperOnIsLocked() {
        let clock = ManualClock()
        let lock = AutoLock(key: MainKey.generate(), idleTimeout: 7200, clock: clock)
        clock.setWall(by: -600)
        #expect(lock.isLocked)
    }

    @Test("errors thrown by the body pass through and the key stays available; withKey may nest")
    func bodyErrors() throws {
        struct Boom: Error {}
        let key = MainKey.generate()
        let lock = AutoLock(key: key, idleTimeout: 60, clock: ManualClock())
        #expect(throws: Boom.self) { try lock.withKey { _ -> Int in throw Boom() } }
        #expect(try lock.withKey { outer in try lock.withKey { inner in inner == outer } })
    }

    @Test("with the system clock, a short timeout drops the key by itself")
    func realClockSweep() async throws {
        let lock = AutoLock(key: MainKey.generate(), idleTimeout: 0.3)
        #expect(lock.holdsKey)
        try await Task.sleep(for: .milliseconds(1200))
        // Nobody asked: the background sweep dropped it.
        #expect(!lock.holdsKey)
        #expect(lock.isLocked)
        let clock = SystemVaultClock()
        let (wall, monotonic) = (clock.wallClock, clock.monotonic)
        #expect(wall > 1_600_000_000)
        #expect(monotonic > 0)
        #expect(clock.monotonic >= monotonic)
    }
}

@Suite("VaultError")
struct VaultErrorTests {
    @Test("every description is a sentence that tells what to do")
    func descriptions() {
        let errors: [VaultError] = [
            .notFound, .corrupt, .wrongPIN(attemptsLeft: 3), .wrongPIN(attemptsLeft: 1), .wiped, .pinRequired, .locked,
            .clockTampered, .weakPIN, .cannotDecrypt, .unsupportedVersion(7), .io("x: cannot be read"),
        ]
        for error in errors {
            #expect(error.description.count > 5)
        }
        #expect(VaultError.wrongPIN(attemptsLeft: 1).description.contains("1 attempt left"))
        #expect(VaultError.wrongPIN(attemptsLeft: 3).description.contains("3 attempts left"))
        #expect(VaultError.unsupportedVersion(7).description.contains("update"))
    }
}

@Suite("AutoLock unlock")
struct AutoLockUnlockTests {
    @Test("unlock() holds the key again with a fresh idle timer")
    func unlockAfterExpiry() throws {
        let clock = ManualClock()
        let key = MainKey.generate()
        let lock = AutoLock(key: key, idleTimeout: 10, clock: clock)
        clock.advance(10)
        #expect(lock.isLocked)
        lock.unlock(key)
        #expect(!lock.isLocked)
        #expect(try lock.withKey { $0 } == key)
        clock.advance(9)
        #expect(!lock.isLocked)
        clock.advance(1)
        #expect(lock.isLocked)
    }
}
