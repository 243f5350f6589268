#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two clocks AutoLock compares: wall-clock time and a clock the user cannot set. Seconds.
public protocol VaultClock: Sendable {
    /// Seconds since 1970 as the system believes; the user can change it.
    var wallClock: TimeInterval { get }
    /// Seconds on a clock that only moves forward and cannot be set.
    var monotonic: TimeInterval { get }
}

/// The system's clocks: `Date()` and the kernel's monotonic clock.
public struct SystemVaultClock: VaultClock {
    /// Creates the system clock.
    public init() {}

    public var wallClock: TimeInterval { Date().timeIntervalSince1970 }

    public var monotonic: TimeInterval {
        var time = timespec()
        // Linux: CLOCK_BOOTTIME is CLOCK_MONOTONIC plus time suspended, so a laptop that slept does
        // not look like a tampered clock. Darwin's CLOCK_MONOTONIC already counts sleep.
        #if os(Linux)
        clock_gettime(CLOCK_BOOTTIME, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }
}
