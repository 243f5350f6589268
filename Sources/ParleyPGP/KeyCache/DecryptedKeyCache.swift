#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Unlocked secret keys held in memory while they are being used, so a pass phrase is asked for once
/// per session rather than once per message. A key is dropped after `timeout` seconds without use
/// (sliding: every use restarts its clock), or at once on `lock(_:)` / `wipe()`.
///
/// Pass phrases are never stored: they are used to unlock and then forgotten by the caller. What is
/// kept is the unlocked key itself. Swift cannot overwrite memory it may have copied, so "wiping" means
/// dropping the last reference: swift-crypto keeps Ed25519, X25519, P-256 and RSA secrets in storage
/// it zeroes when released, and `SecretBytes` does the same for Ed448 and X448 (OPENSSL_cleanse); the raw
/// secret MPI copy an `UnlockedKey` carries is freed, not overwritten.
public final class DecryptedKeyCache: Sendable {
    /// Seconds without use after which a key is dropped (120, as FlowCrypt does).
    public static let defaultTimeout: Double = 120

    /// Seconds without use after which a key is dropped.
    public let timeout: Double
    private let clock: @Sendable () -> Double
    private let entries = Mutex<[[UInt8]: Entry]>([:])

    private struct Entry {
        let key: UnlockedKey
        var lastUse: Double
    }

    /// A cache whose time comes from `clock` (seconds, monotonic; injectable so tests need not wait).
    public init(timeout: Double = DecryptedKeyCache.defaultTimeout,
                clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.timeout = timeout
        self.clock = clock
    }

    /// The cached unlocked key with this (sub)key fingerprint, if still fresh; using it restarts its clock.
    public func key(fingerprint: [UInt8]) -> UnlockedKey? {
        let now = clock()
        return entries.withLock { entries in
            Self.sweep(&entries, now: now, timeout: timeout)
            guard var entry = entries[fingerprint] else { return nil }
            entry.lastUse = now
            entries[fingerprint] = entry
            return entry.key
        }
    }

    /// Keeps `key` (unlocked) until it goes unused for `timeout` seconds.
    public func store(_ key: UnlockedKey) {
        let now = clock()
        entries.withLock { entries in
            Self.sweep(&entries, now: now, timeout: timeout)
            entries[key.publicKey.fingerprint] = Entry(key: key, lastUse: now)
        }
    }

    /// The unlocked form of `secret`: from the cache when fresh, else unlocked with one of
    /// `passphrases` and cached. Throws `.needsPassphrase` or `.wrongPassphrase` like `SecretKey.unlock`.
    public func unlock(_ secret: SecretKey, passphrases: [[UInt8]]) throws -> UnlockedKey {
        if let cached = key(fingerprint: secret.publicKey.fingerprint) { return cached }
        let unlocked = try Self.unlock(secret, passphrases: passphrases)
        store(unlocked)
        return unlocked
    }

    /// Unlocks `secret` with the first pass phrase that fits (none needed when it is unprotected).
    static func unlock(_ secret: SecretKey, passphrases: [[UInt8]]) throws -> UnlockedKey {
        guard secret.isLocked else { return try secret.unlock(passphrase: nil) }
        guard !passphrases.isEmpty else { throw PGPError.needsPassphrase }
        for passphrase in passphrases {
            if let unlocked = try? secret.unlock(passphrase: passphrase) { return unlocked }
        }
        throw PGPError.wrongPassphrase
    }

    /// Drops the key with this fingerprint now.
    public func lock(fingerprint: [UInt8]) {
        _ = entries.withLock { $0.removeValue(forKey: fingerprint) }
    }

    /// Drops every key now (app locked, user logged out).
    public func wipe() {
        entries.withLock { $0.removeAll() }
    }

    /// Drops the keys unused for `timeout` seconds; returns how many were dropped. Lookups sweep too;
    /// `startSweeping` calls this on a timer so idle keys go even when nobody looks.
    @discardableResult
    public func sweep() -> Int {
        let now = clock()
        return entries.withLock { Self.sweep(&$0, now: now, timeout: timeout) }
    }

    /// How many keys are held.
    public var count: Int {
        entries.withLock { $0.count }
    }

    /// Sweeps every `interval` until the returned task is cancelled or the cache is released.
    public func startSweeping(every interval: Duration = .seconds(5)) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.sweep()
            }
        }
    }

    @discardableResult
    private static func sweep(_ entries: inout [[UInt8]: Entry], now: Double, timeout: Double) -> Int {
        let stale = entries.filter { now - $0.value.lastUse >= timeout }.map(\.key)
        for fingerprint in stale { entries.removeValue(forKey: fingerprint) }
        return stale.count
    }
}
