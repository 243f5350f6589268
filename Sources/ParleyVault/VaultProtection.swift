/// How the MainKey is protected at rest; the mode is recorded in the MainKey file.
public enum VaultProtection: Sendable, Equatable {
    /// The key is stored as it is, in a file only the user can read.
    case none
    /// The key is wrapped under scrypt(PIN).
    case pin
    /// The key is wrapped by the named hardware protector (Secure Enclave, TPM…).
    case hardware(String)
}

/// A hardware-backed wrapper of the MainKey (Secure Enclave, TPM); implementations come later.
public protocol HardwareKeyProtector: Sendable {
    /// A stable name recorded in the file, so unlocking can pick the right protector.
    var name: String { get }
    /// Wraps `key` into an opaque blob that only this protector can unwrap.
    func wrap(_ key: MainKey) throws -> [UInt8]
    /// Unwraps a blob made by `wrap`.
    func unwrap(_ blob: [UInt8]) throws -> MainKey
}
