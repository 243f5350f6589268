/// Why the vault could not be created, unlocked or used.
///
/// Descriptions say what to do and never contain keys, PINs or plaintext.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The account directory has no MainKey file.
    case notFound
    /// The MainKey file, a key or a sealed value is damaged: its structure or checksum is wrong.
    case corrupt
    /// The PIN did not unwrap the MainKey; `attemptsLeft` more wrong PINs are allowed before the wipe.
    case wrongPIN(attemptsLeft: Int)
    /// Too many wrong PINs in a row: the account's local data was removed.
    case wiped
    /// The MainKey is protected by a PIN and none was given.
    case pinRequired
    /// The unlocked MainKey was dropped (idle timeout or `lock()`); unlock again.
    case locked
    /// The wall clock and the monotonic clock disagree: the key was dropped as a precaution.
    case clockTampered
    /// A new PIN is too short (or absurdly long).
    case weakPIN
    /// A sealed value or a wrapped key did not authenticate: wrong key, wrong binding or altered.
    case cannotDecrypt
    /// The data was written by a newer Parley (the byte is the version found).
    case unsupportedVersion(UInt8)
    /// The file system refused; the payload says which path and what to do.
    case io(String)

    public var description: String {
        switch self {
        case .notFound:
            "no MainKey file for this account: sign in again to set up local storage"
        case .corrupt:
            "the local key store is damaged (checksum or structure wrong): restore it from a backup or sign in again"
        case .wrongPIN(let attemptsLeft):
            "wrong PIN: \(attemptsLeft) attempt\(attemptsLeft == 1 ? "" : "s") left before this account's local data is erased"
        case .wiped:
            "too many wrong PINs: this account's data on this device was erased. Signing in again with your password "
                + "brings back your keys (contacts reach you with no key change), not the message history: only pairing "
                + "with another device of yours that still has it brings that back"
        case .pinRequired:
            "this account's local data is protected by a PIN: enter the PIN to unlock it"
        case .locked:
            "the local data is locked (idle timeout or lock): unlock it again"
        case .clockTampered:
            "the system clock jumped: the local data was locked as a precaution; unlock it again"
        case .weakPIN:
            "a PIN must be at least \(PIN.minimumLength) characters (and at most \(PIN.maximumBytes) bytes)"
        case .cannotDecrypt:
            "could not decrypt or authenticate local data (wrong key, or the data was altered or moved)"
        case .unsupportedVersion(let version):
            "unsupported local data version \(version): it was written by a newer Parley; update Parley"
        case .io(let why):
            why
        }
    }
}
