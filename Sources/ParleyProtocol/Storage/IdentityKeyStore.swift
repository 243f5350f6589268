import Synchronization

/// Our identity key and the identity keys we trust for other addresses.
public protocol IdentityKeyStore: AnyObject, Sendable {
    /// Our own identity key pair.
    func localIdentity() throws -> IdentityKeyPair
    /// Whether `identityKey` may be used for `address` (trust on first use, or verified).
    func isTrusted(_ identityKey: [UInt8], for address: ProtocolAddress) throws -> Bool
    /// Records `identityKey` as the one seen for `address`.
    func saveIdentity(_ identityKey: [UInt8], for address: ProtocolAddress) throws
    /// Identity keys this device used before a rotation and still answers prekey messages for, newest first
    /// (docs/PROTOCOL.md §4.2); empty by default.
    func retiredIdentities() throws -> [IdentityKeyPair]
}

extension IdentityKeyStore {
    /// No retired identities.
    public func retiredIdentities() throws -> [IdentityKeyPair] { [] }
}

/// An identity store in memory that trusts on first use and refuses a changed key.
public final class InMemoryIdentityKeyStore: IdentityKeyStore {
    private let identity: IdentityKeyPair
    private let known = Mutex<[String: [UInt8]]>([:])

    /// Creates a store for our `identity`.
    public init(identity: IdentityKeyPair) {
        self.identity = identity
    }

    /// Our own identity key pair.
    public func localIdentity() -> IdentityKeyPair { identity }

    /// Identity keys belong to accounts (shared by all their devices), so trust is per account.
    public func isTrusted(_ identityKey: [UInt8], for address: ProtocolAddress) -> Bool {
        known.withLock { $0[address.accountId].map { $0 == identityKey } ?? true }
    }

    /// Records `identityKey` as the one seen for `address`'s account.
    public func saveIdentity(_ identityKey: [UInt8], for address: ProtocolAddress) {
        known.withLock { $0[address.accountId] = identityKey }
    }

    /// Accepts a changed key after the user verified it.
    public func replaceIdentity(_ identityKey: [UInt8], for address: ProtocolAddress) {
        saveIdentity(identityKey, for: address)
    }
}
