import Foundation
import Synchronization
import Testing
@testable import ParleyPGP

/// The 120 s decrypted-key cache, on a clock the test moves by hand.
struct KeyCacheTests {
    /// A clock the test sets.
    final class ManualClock: Sendable {
        private let time = Mutex<Double>(1000)
        var now: Double { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    static func lockedKey() throws -> (SecretKey, Certificate) {
        let certificate = try Fixtures.certificate("ed.sec.asc")
        let secret = try #require(certificate.secretKeys.first)
        #expect(secret.isLocked)
        return (secret, certificate)
    }

    @Test func slidingExpiryAfter120Seconds() throws {
        let clock = ManualClock()
        let cache = DecryptedKeyCache(clock: { clock.now })
        let (secret, _) = try Self.lockedKey()
        let fingerprint = secret.publicKey.fingerprint
        #expect(throws: PGPError.needsPassphrase) { try cache.unlock(secret, passphrases: []) }
        #expect(throws: PGPError.wrongPassphrase) { try cache.unlock(secret, passphrases: [Array("nope nope nope".utf8)]) }
        #expect(cache.count == 0)
        let unlocked = try cache.unlock(secret, passphrases: [Fixtures.passphrase])
        #expect(unlocked.publicKey.fingerprint == fingerprint)
        // Used every 100 s for 10 minutes: it stays, and needs no pass phrase.
        for _ in 0..<6 {
            clock.advance(100)
            #expect(try cache.unlock(secret, passphrases: []).publicKey.fingerprint == fingerprint)
        }
        // 119.9 s idle: still there; from 120 s idle it is gone.
        clock.advance(119.9)
        #expect(cache.key(fingerprint: fingerprint) != nil)
        clock.advance(120)
        #expect(cache.sweep() == 1)
        #expect(cache.key(fingerprint: fingerprint) == nil)
        #expect(throws: PGPError.needsPassphrase) { try cache.unlock(secret, passphrases: []) }
    }

    @Test func lookupsDropStaleKeys() throws {
        let clock = ManualClock()
        let cache = DecryptedKeyCache(clock: { clock.now })
        let (secret, _) = try Self.lockedKey()
        _ = try cache.unlock(secret, passphrases: [Fixtures.passphrase])
        clock.advance(120)
        #expect(cache.key(fingerprint: [1, 2, 3]) == nil)
        #expect(cache.count == 0)
    }

    @Test func lockAndWipe() throws {
        let cache = DecryptedKeyCache(clock: { 0 })
        let (secret, _) = try Self.lockedKey()
        let rsa = try #require(Fixtures.certificate("rsa.sec.asc").secretKeys.first)
        _ = try cache.unlock(secret, passphrases: [Fixtures.passphrase])
        _ = try cache.unlock(rsa, passphrases: [Fixtures.passphrase])
        #expect(cache.count == 2)
        cache.lock(fingerprint: rsa.publicKey.fingerprint)
        #expect(cache.count == 1 && cache.key(fingerprint: secret.publicKey.fingerprint) != nil)
        cache.wipe()
        #expect(cache.count == 0)
        #expect(throws: PGPError.needsPassphrase) { try cache.unlock(secret, passphrases: []) }
    }

    @Test func timerSweepsIdleKeys() async throws {
        let cache = DecryptedKeyCache(timeout: 0.05)
        let (secret, _) = try Self.lockedKey()
        _ = try cache.unlock(secret, passphrases: [Fixtures.passphrase])
        let sweeper = cache.startSweeping(every: .milliseconds(20))
        defer { sweeper.cancel() }
        var waited = 0
        while cache.count > 0, waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        #expect(cache.count == 0)
    }

    /// Reading mail through the cache: the pass phrase is needed for the first message only.
    @Test func mailReaderUsesTheCache() throws {
        let clock = ManualClock()
        let cache = DecryptedKeyCache(clock: { clock.now })
        let key = try Fixtures.certificate("ed.sec.asc")
        let message = Armor.encode(try Fixtures.bytes("ed.msg.gpg"), as: .message)
        let eml = Array("Subject: x\r\n\r\n\(message)".utf8)
        let plain = try Fixtures.text("plain.txt")
        let first = try MailReader.read(eml: eml, keys: [key], passphrases: [Fixtures.passphrase], verifyWith: [], cache: cache)
        #expect(first.blocks == [.decryptedText(plain, signature: .none)])
        clock.advance(60)
        let second = try MailReader.read(eml: eml, keys: [key], passphrases: [], verifyWith: [], cache: cache)
        #expect(second.blocks == first.blocks)
        clock.advance(120)
        let third = try MailReader.read(eml: eml, keys: [key], passphrases: [], verifyWith: [], cache: cache)
        #expect(third.blocks == [.error(.needsPassphrase)])
    }

    /// Within one read each key is unlocked at most once, whether that worked or not: many armored
    /// blocks with a wrong pass phrase cost one S2K run, not one per block.
    @Test func oneUnlockPerKeyPerRead() throws {
        let key = try Fixtures.certificate("rsa.sec.asc")
        let armored = Armor.encode(try Fixtures.bytes("rsa.msg.gpg"), as: .message)
        for (passphrases, expected) in [([Array("wrong wrong wrong".utf8)], PGPError.wrongPassphrase), ([], .needsPassphrase)] {
            let keys = MailDecryption(keys: [key], passphrases: passphrases, verifiers: [], now: Fixtures.now, cache: nil, decompressionLimit: 1 << 20)
            for _ in 0..<5 {
                #expect(throws: expected) { try keys.decrypt(Array(armored.utf8)) }
            }
            #expect(keys.memo.attempts == 1, "\(expected)")
        }
        let keys = MailDecryption(keys: [key], passphrases: [Fixtures.passphrase], verifiers: [], now: Fixtures.now, cache: nil, decompressionLimit: 1 << 20)
        for _ in 0..<5 { #expect(try keys.decrypt(Array(armored.utf8)).literal.data == Fixtures.bytes("plain.txt")) }
        #expect(keys.memo.attempts == 1)
        // The same through a whole message with 30 armored blocks.
        let eml = Array(("Subject: many\r\n\r\n" + String(repeating: armored + "\n", count: 30)).utf8)
        let mail = try MailReader.read(eml: eml, keys: [key], passphrases: [Array("wrong wrong wrong".utf8)], verifyWith: [])
        #expect(mail.blocks == Array(repeating: .error(.wrongPassphrase), count: 30))
    }
}
