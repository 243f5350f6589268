import Foundation
import NIOCore
import NIOPosix
import ParleyCrypto
import ParleyVault

/// Gives the current wall-clock time.
public protocol HasClock { var clock: any WallClock { get } }
/// Gives randomness for keys and nonces.
public protocol HasRandom { var random: any RandomSource { get } }
/// Gives the clocks the vault's autolock watches (wall and monotonic, to catch clock tampering).
public protocol HasVaultClock { var vaultClock: any VaultClock { get } }
/// Gives the event loops connections run on.
public protocol HasEventLoopGroup { var eventLoopGroup: any EventLoopGroup { get } }

/// What a client needs from its surroundings, in one container (Proton-style composition: components
/// name the `Has…` protocols they use, tests swap a part by building another container).
public struct ClientDependencies: HasClock, HasRandom, HasEventLoopGroup, HasVaultClock, Sendable {
    /// Wall-clock time (message times, expiries).
    public var clock: any WallClock
    /// Randomness for keys and nonces.
    public var random: any RandomSource
    /// The event loops the connection runs on.
    public var eventLoopGroup: any EventLoopGroup
    /// The clocks the vault's idle lock reads.
    public var vaultClock: any VaultClock

    /// Real clocks, system randomness, NIO's shared event loops.
    public init(
        clock: any WallClock = SystemWallClock(), random: any RandomSource = SystemRandomSource(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        vaultClock: any VaultClock = SystemVaultClock()
    ) {
        self.vaultClock = vaultClock
        self.clock = clock
        self.random = random
        self.eventLoopGroup = eventLoopGroup
    }
}
