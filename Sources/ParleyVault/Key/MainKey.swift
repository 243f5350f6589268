import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The per-account key that encrypts everything the client writes: 32 random bytes.
///
/// The bytes live in a `SymmetricKey`, whose storage swift-crypto zeroes when the last copy goes away.
public struct MainKey: Sendable, Equatable {
    /// The length of a MainKey in bytes.
    public static let byteCount = 32

    let key: SymmetricKey

    /// Draws a fresh MainKey from the system's secure generator.
    public static func generate() -> MainKey {
        MainKey(key: SymmetricKey(size: .bits256))
    }

    /// Rebuilds a MainKey from its 32 bytes (as stored in a file or returned by a protector).
    public init(bytes: [UInt8]) throws(VaultError) {
        guard bytes.count == Self.byteCount else { throw .corrupt }
        self.key = SymmetricKey(data: bytes)
    }

    init(key: SymmetricKey) {
        self.key = key
    }

    /// Derives an independent 32-byte subkey (HKDF-SHA256, info "Parley-vault-subkey-v1:" + purpose).
    ///
    /// Use one purpose per job (e.g. "search-index") so a key for one job reveals nothing of the others.
    public func subkey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: [UInt8](), info: Array(Self.subkeyInfoPrefix.utf8) + Array(purpose.utf8),
            outputByteCount: 32)
    }

    /// A 16-byte value that identifies this key without revealing it, stored in the MainKey file so a
    /// re-wrap with the wrong key is refused and an unwrapped key is checked.
    var check: [UInt8] {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: [UInt8](), info: Array(Self.checkInfo.utf8), outputByteCount: 16)
        return derived.withUnsafeBytes { Array($0) }
    }

    /// Lends the raw 32 bytes to `body`, for a `HardwareKeyProtector` to wrap; never store or log them.
    public func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try key.withUnsafeBytes(body)
    }

    /// Constant-time comparison (SymmetricKey's own `==` is constant-time).
    public static func == (lhs: MainKey, rhs: MainKey) -> Bool {
        lhs.key == rhs.key
    }

    static let subkeyInfoPrefix = "Parley-vault-subkey-v1:"
    static let checkInfo = "Parley-vault-key-check-v1"
}

extension Array where Element == UInt8 {
    /// Overwrites every byte with zero before the array is dropped (best effort: Swift may have copied it).
    mutating func resetBytes() {
        SecureZero.bytes(&self)
    }
}
