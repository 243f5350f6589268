/// The kind of recipient a stanza wraps the file key for.
public enum StanzaKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Apple ECIES (variable IV) to a P-256 key: FileLock and Secure Enclave keys.
    case p256 = 0x01
    /// X25519 ephemeral-static Diffie-Hellman.
    case x25519 = 0x02
    /// X-Wing (ML-KEM-768 + X25519), post-quantum hybrid.
    case xwing = 0x03
    /// A passphrase stretched with scrypt in one lane.
    case passphrase = 0x04
    /// A passphrase stretched with scrypt in several lanes (less memory for the same work).
    case passphraseLanes = 0x05

    /// The body length every stanza of this kind has.
    public var bodyLength: Int {
        switch self {
        case .p256: 113
        case .x25519: 80
        case .xwing: 1168
        case .passphrase: 65
        case .passphraseLanes: 66
        }
    }

    /// Whether the kind uses a public key that a quantum computer could break.
    var isClassicPublicKey: Bool { self == .p256 || self == .x25519 }

    /// Whether a passphrase opens the kind.
    var isPassphrase: Bool { self == .passphrase || self == .passphraseLanes }

    /// The name users see in `inspect` and in error messages.
    public var description: String {
        switch self {
        case .p256: "P-256 key"
        case .x25519: "X25519 key"
        case .xwing: "X-Wing (post-quantum) key"
        case .passphrase, .passphraseLanes: "passphrase"
        }
    }
}

/// One recipient's wrapped copy of the file key: `kind(u8) || length(u16) || body`.
public struct Stanza: Sendable, Equatable {
    /// Which recipient kind the body is for.
    public let kind: StanzaKind
    /// The kind-specific bytes (see docs/FORMATS.md §10 §3).
    public let body: [UInt8]

    /// Creates a stanza; the body length is checked when the header is validated.
    public init(kind: StanzaKind, body: [UInt8]) {
        self.kind = kind
        self.body = body
    }

    /// The stanza's bytes as they appear in the header.
    public var encoded: [UInt8] {
        var out: [UInt8] = [kind.rawValue]
        out.append(UInt8(body.count >> 8))
        out.append(UInt8(body.count & 0xFF))
        return out + body
    }
}
