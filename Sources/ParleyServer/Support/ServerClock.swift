import Foundation
import Synchronization

/// Where the server reads the time, injected so tests can move it forward.
public protocol ServerClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func now() -> Int64
}

/// The system's wall clock.
public struct SystemServerClock: ServerClock {
    public init() {}
    public func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}

/// A clock tests set and advance by hand.
public final class ManualServerClock: ServerClock {
    private let value: Mutex<Int64>
    /// Starts at `start` milliseconds.
    public init(start: Int64 = 1_800_000_000_000) { value = Mutex(start) }
    public func now() -> Int64 { value.withLock { $0 } }
    /// Moves time forward.
    public func advance(milliseconds: Int64) { value.withLock { $0 += milliseconds } }
}
