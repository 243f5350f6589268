/// Everything that can go wrong reading a mail message or one of its parts; descriptions never contain
/// keys, plaintext or pass phrases.
public enum MailError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Multiparts (and decrypted messages inside them) are nested deeper than the limit.
    case tooDeep(limit: Int)
    /// The message has more MIME parts than the limit.
    case tooManyParts(limit: Int)
    /// A header field (after unfolding) is longer than the limit in bytes.
    case headerTooLong(limit: Int)
    /// The message is larger than the limit in bytes.
    case tooLarge(limit: Int)
    /// The message structure cannot be read (no header fields, a multipart without its boundary…).
    case malformed(String)
    /// A base64 body holds characters outside the base64 alphabet or an impossible length.
    case badBase64
    /// A quoted-printable body holds an `=` not followed by two hex digits or a line break.
    case badQuotedPrintable
    /// The Content-Transfer-Encoding is not one of 7bit, 8bit, binary, base64, quoted-printable.
    case unknownTransferEncoding(String)
    /// None of the given secret keys is one the message was encrypted to.
    case keyMismatch
    /// A matching secret key is protected and no pass phrase was given.
    case needsPassphrase
    /// A matching secret key is protected and none of the pass phrases given unlocks it.
    case wrongPassphrase
    /// The message is encrypted to a password (and to no key given) and no password was given.
    case needsPassword
    /// The message is encrypted to a password and none of the passwords given opens it.
    case wrongPassword
    /// The encrypted data has no modification detection code; it was not decrypted.
    case noMDC
    /// The modification detection code did not match: the encrypted data was altered or cut.
    case badMDC
    /// The OpenPGP data inside the part is not well formed (armor, packets, truncation).
    case formatError(String)
    /// The OpenPGP data uses an algorithm or feature Parley does not implement.
    case unsupported(String)

    /// A human-readable summary (never includes key material, plaintext or passwords).
    public var description: String {
        switch self {
        case .tooDeep(let limit): "the message nests more than \(limit) levels of parts"
        case .tooManyParts(let limit): "the message has more than \(limit) parts"
        case .headerTooLong(let limit): "a header field is longer than \(limit) bytes"
        case .tooLarge(let limit): "the message is larger than \(limit) bytes"
        case .malformed(let why): "malformed message: \(why)"
        case .badBase64: "a part's base64 encoding is invalid"
        case .badQuotedPrintable: "a part's quoted-printable encoding is invalid"
        case .unknownTransferEncoding(let name): "unknown Content-Transfer-Encoding \"\(name.prefix(40))\""
        case .keyMismatch: "the message is encrypted to a key you do not have"
        case .needsPassphrase: "the secret key is protected: a pass phrase is needed"
        case .wrongPassphrase: "wrong pass phrase for the secret key"
        case .needsPassword: "the message is encrypted with a password: give the password to read it"
        case .wrongPassword: "wrong password for the encrypted message"
        case .noMDC: "the encrypted data has no integrity protection (no MDC); refusing to decrypt"
        case .badMDC: "the encrypted data failed its integrity check (MDC): it was altered"
        case .formatError(let why): "malformed OpenPGP data: \(why)"
        case .unsupported(let what): "unsupported OpenPGP feature: \(what)"
        }
    }

    /// The per-block error for whatever reading a part threw.
    init(reading error: Error) {
        switch error {
        case let error as MailError: self = error
        case let error as PGPError: self.init(error)
        default: self = .formatError("unreadable")
        }
    }

    /// The per-block error for an OpenPGP failure.
    init(_ error: PGPError) {
        switch error {
        case .noMatchingKey: self = .keyMismatch
        case .needsPassphrase: self = .needsPassphrase
        case .wrongPassphrase: self = .wrongPassphrase
        case .missingMDC: self = .noMDC
        case .badMDC: self = .badMDC
        case .truncated: self = .formatError("the encrypted data is truncated")
        case .unsupported(let what): self = .unsupported(what)
        case .badArmor, .malformed, .badSignature, .unusableKey, .notEncrypted, .trailingData: self = .formatError(error.description)
        }
    }
}

/// Bounds on what a message may make the reader do; exceeding one is a typed `MailError`.
public struct MailLimits: Sendable, Equatable {
    /// Deepest nesting of multiparts and decrypted messages (RFC 2046 sets none; 20 is far beyond real mail).
    public var maxDepth = 20
    /// Most MIME parts in one message, counting every level.
    public var maxParts = 1000
    /// Longest header field after unfolding, in bytes.
    public var maxHeaderLine = 64 * 1024
    /// Largest message, in bytes.
    public var maxBytes = 64 * 1024 * 1024

    /// The defaults: depth 20, 1000 parts, 64 KiB header fields, 64 MiB messages.
    public init() {}
}
