#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A wall clock in milliseconds since the Unix epoch — the one the server and the client read, injected so
/// tests can move time (ParleyServer's `ManualServerClock`).
public protocol WallClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func now() -> Int64
}

/// The system's wall clock.
public struct SystemWallClock: WallClock {
    public init() {}
    public func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
