#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Holds the unlocked MainKey in memory and drops it after `idleTimeout` seconds without use (sliding), on `lock()`,
/// or when the wall clock and the monotonic clock disagree by more than `tolerance` (clock tampering, as Proton does).
///
/// Dropping the key releases its `SymmetricKey`, whose storage swift-crypto zeroes. Expiry is checked on
/// every use and by a background sweep, so an idle key does not linger until the next use.
public final class AutoLock: Sendable {
    private struct State {
        var key: MainKey?
        var lastWall: TimeInterval
        var lastMonotonic: TimeInterval
    }

    private let state: Mutex<State>
    private let clock: any VaultClock
    private let idleTimeout: TimeInterval
    private let tolerance: TimeInterval
    private let sweeper = Mutex<Task<Void, Never>?>(nil)

    /// Holds `key` from now on; `idleTimeout` and `tolerance` are in seconds.
    public init(key: MainKey, idleTimeout: TimeInterval, clock: some VaultClock = SystemVaultClock(), tolerance: TimeInterval = 5) {
        self.clock = clock
        self.idleTimeout = idleTimeout
        self.tolerance = tolerance
        self.state = Mutex(State(key: key, lastWall: clock.wallClock, lastMonotonic: clock.monotonic))
        startSweeper()
    }

    deinit {
        sweeper.withLock { $0?.cancel() }
    }

    /// Runs `body` with the key and restarts the idle timer.
    ///
    /// Throws `VaultError.locked` once the key was dropped, or `.clockTampered` (and locks) if the
    /// clocks disagree. `body` runs outside the internal lock, so it may call `withKey` again.
    public func withKey<T>(_ body: (MainKey) throws -> T) throws -> T {
        let key = try state.withLock { state throws(VaultError) -> MainKey in
            try Self.expire(&state, clock: clock, idleTimeout: idleTimeout, tolerance: tolerance)
            guard let key = state.key else { throw VaultError.locked }
            state.lastWall = clock.wallClock
            state.lastMonotonic = clock.monotonic
            return key
        }
        return try body(key)
    }

    /// Holds `key` again after a lock (the user entered the PIN); the idle timer starts afresh.
    public func unlock(_ key: MainKey) {
        state.withLock { state in
            state.key = key
            state.lastWall = clock.wallClock
            state.lastMonotonic = clock.monotonic
        }
        sweeper.withLock { $0?.cancel() }
        startSweeper()
    }

    /// Drops the key now.
    public func lock() {
        state.withLock { $0.key = nil }
        sweeper.withLock { $0?.cancel() }
    }

    /// Whether the key is gone (locked, idle too long or dropped for a clock jump); checks expiry.
    public var isLocked: Bool {
        state.withLock { state in
            try? Self.expire(&state, clock: clock, idleTimeout: idleTimeout, tolerance: tolerance)
            return state.key == nil
        }
    }

    /// Whether the key is still held, without checking expiry: tests use it to see the sweep work.
    var holdsKey: Bool {
        state.withLock { $0.key != nil }
    }

    /// Drops the key if it sat idle too long or the clocks disagree; throws the reason for the latter.
    private static func expire(
        _ state: inout State, clock: any VaultClock, idleTimeout: TimeInterval, tolerance: TimeInterval
    ) throws(VaultError) {
        guard state.key != nil else { return }
        let monotonic = clock.monotonic - state.lastMonotonic
        let wall = clock.wallClock - state.lastWall
        // Both clocks advance together unless someone sets the wall clock (e.g. back, to dodge the
        // idle timeout). The monotonic clock decides the timeout; the difference flags tampering.
        if abs(wall - monotonic) > tolerance || monotonic < 0 {
            state.key = nil
            throw .clockTampered
        }
        if monotonic >= idleTimeout {
            state.key = nil
        }
    }

    /// Checks expiry every few seconds in the background, so an idle key is dropped on time.
    private func startSweeper() {
        let interval = min(max(idleTimeout / 4, 0.25), 30)
        let task = Task.detached(priority: .background) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(interval))
                guard let self, !self.isLocked else { return }
            }
        }
        sweeper.withLock { $0 = task }
    }
}
