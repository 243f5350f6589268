/// Why an encrypted file could not be made or opened.
///
/// Descriptions say what to do and never contain keys, passphrases or plaintext. Every
/// cryptographic failure is the single opaque `cannotDecrypt`.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data starts like neither a Parley v1 file nor a FileLock package.
    case notEncryptedFile
    /// A Parley file of a later version, or with a recipient kind this version does not know.
    case unsupportedVersion(String)
    /// The structure is wrong; the payload names the field (no secret content).
    case malformed(String)
    /// The file holds no recipient of the kind the given key or passphrase can open.
    case noMatchingRecipient(needed: String, present: [String])
    /// No recipient unwrapped, the header MAC failed, or a chunk failed: one opaque error.
    case cannotDecrypt
    /// The recipients asked for cannot be combined or are out of range.
    case invalidRecipients(String)
    /// A key or passphrase could not be used; the payload says which and why.
    case invalidKey(String)
    /// Reading or writing failed; the payload names the side and the system error.
    case io(String)

    public var description: String {
        switch self {
        case .notEncryptedFile:
            "not a Parley or FileLock encrypted file (it does not start with PRLYFILE or a FileLock key chunk)"
        case .unsupportedVersion(let what):
            "unsupported \(what): this file was made by a newer Parley; update Parley to open it"
        case .malformed(let what):
            "malformed encrypted file: \(what)"
        case .noMatchingRecipient(let needed, let present):
            "this file is not sealed to a \(needed); its recipients are: \(present.joined(separator: ", "))"
        case .cannotDecrypt:
            "could not decrypt or authenticate (wrong key or passphrase, or the file was altered)"
        case .invalidRecipients(let why):
            "cannot seal to these recipients: \(why)"
        case .invalidKey(let why):
            why
        case .io(let why):
            why
        }
    }
}
