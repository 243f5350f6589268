#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The file `DIR/mainkey` that keeps the MainKey (0600 permissions, atomic writes: temp + fsync + rename + dir fsync).
///
/// Format: docs/FORMATS.md "MainKey file". A damaged file is `.corrupt`; in PIN mode a file whose
/// checksum holds but whose wrap does not open means a wrong PIN.
public struct MainKeyFile {
    /// The file's name inside the account directory.
    public static let fileName = "mainkey"
    /// Consecutive wrong PINs that wipe the account directory.
    public static let maximumAttempts = 10

    /// The path of the MainKey file in `directory`.
    static func url(in directory: URL) -> URL {
        directory.appendingPathComponent(fileName)
    }

    /// Whether `directory` holds a MainKey file (damaged or not).
    public static func exists(in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: url(in: directory).path)
    }

    /// The protection mode the file records.
    public static func protection(in directory: URL) throws(VaultError) -> VaultProtection {
        try load(directory).protection
    }

    /// Creates the file for a new account; `pin` nil → mode none. Refuses to replace an existing file.
    public static func create(in directory: URL, key: MainKey, pin: String?) throws(VaultError) {
        try create(in: directory, key: key, pin: pin, random: SystemRandomSource())
    }

    /// `create` with the salt and nonce drawn from `random`: tests reproduce vectors with it.
    static func create(in directory: URL, key: MainKey, pin: String?, random: some RandomSource) throws(VaultError) {
        let contents: MainKeyFileContents =
            if let pin { try .pinWrapped(key, pin: pin, random: random) } else { .plain(key) }
        try createFile(in: directory, contents)
    }

    /// Creates the file for a new account with the key wrapped by a hardware protector.
    public static func create(in directory: URL, key: MainKey, protector: some HardwareKeyProtector) throws(VaultError) {
        try createFile(in: directory, .hardwareWrapped(key, protector: protector))
    }

    /// Unlocks a file in mode none or pin (`pin` is ignored in mode none).
    ///
    /// In PIN mode every try is counted in the file before the PIN is tried; the counter is reset on
    /// success, and the `maximumAttempts`-th wrong PIN in a row removes `directory` and throws `.wiped`.
    public static func unlock(in directory: URL, pin: String?) throws(VaultError) -> MainKey {
        try withDirectoryLock(directory) { () throws(VaultError) in
            let contents = try load(directory)
            switch contents.body {
            case .none(let bytes):
                return try checked(MainKey(bytes: bytes), against: contents)
            case .pin(let salt, let nonce, let wrapped):
                guard let pin else { throw .pinRequired }
                return try unlockPIN(
                    in: directory, contents: contents, pin: pin, salt: salt, nonce: nonce, wrapped: wrapped)
            case .hardware(let name, _):
                throw .io("this account's MainKey is protected by the hardware key \(name): unlock it with that key")
            }
        }
    }

    /// Unlocks a file in hardware mode with `protector`, which must be the one that wrapped it.
    public static func unlock(in directory: URL, protector: some HardwareKeyProtector) throws(VaultError) -> MainKey {
        let contents = try load(directory)
        switch contents.body {
        case .hardware(let name, let blob):
            guard name == protector.name else {
                throw .io("this account's MainKey is protected by the hardware key \(name), not \(protector.name)")
            }
            // A protector that has words for the person (no device, another device, a wrong PIN, locked out)
            // throws them as a VaultError; any other failure is "could not decrypt".
            let key: MainKey
            do { key = try protector.unwrap(blob) } catch let error as VaultError { throw error } catch { throw .cannotDecrypt }
            guard ConstantTime.equals(key.check, contents.keyCheck) else { throw .cannotDecrypt }
            return key
        case .pin:
            throw .pinRequired
        case .none(let bytes):
            return try checked(MainKey(bytes: bytes), against: contents)
        }
    }

    /// Re-wraps `key` under `newPIN` (nil → mode none); the data it encrypts is untouched.
    ///
    /// `key` must be the key the file holds (checked against the file's key check), so a mix-up
    /// cannot replace the MainKey and make the account's data unreadable.
    public static func changePIN(in directory: URL, key: MainKey, newPIN: String?) throws(VaultError) {
        try changePIN(in: directory, key: key, newPIN: newPIN, random: SystemRandomSource())
    }

    /// `changePIN` with the salt and nonce drawn from `random`.
    static func changePIN(in directory: URL, key: MainKey, newPIN: String?, random: some RandomSource) throws(VaultError) {
        if let newPIN { _ = try PIN.normalized(newPIN) }
        try replace(in: directory, key: key) { () throws(VaultError) -> MainKeyFileContents in
            if let newPIN { try .pinWrapped(key, pin: newPIN, random: random) } else { .plain(key) }
        }
    }

    /// Re-wraps `key` with a hardware protector; the data it encrypts is untouched.
    public static func changeProtection(in directory: URL, key: MainKey, protector: some HardwareKeyProtector) throws(VaultError) {
        try replace(in: directory, key: key) { () throws(VaultError) -> MainKeyFileContents in
            try .hardwareWrapped(key, protector: protector)
        }
    }
}
