import ParleyCrypto
import Synchronization

/// A clock tests set and advance by hand.
public final class ManualServerClock: WallClock {
    private let value: Mutex<Int64>
    /// Starts at `start` milliseconds.
    public init(start: Int64 = 1_800_000_000_000) { value = Mutex(start) }
    public func now() -> Int64 { value.withLock { $0 } }
    /// Moves time forward.
    public func advance(milliseconds: Int64) { value.withLock { $0 += milliseconds } }
}
