/// What a signature certifies (RFC 4880 §5.2.1).
public enum SignatureType: UInt8, Sendable {
    /// Binary (0x00).
    case binary = 0x00
    /// Text (0x01).
    case text = 0x01
    /// Standalone (0x02).
    case standalone = 0x02
    /// Generic certification (0x10).
    case genericCertification = 0x10
    /// Persona certification (0x11).
    case personaCertification = 0x11
    /// Casual certification (0x12).
    case casualCertification = 0x12
    /// Positive certification (0x13).
    case positiveCertification = 0x13
    /// Subkey binding (0x18).
    case subkeyBinding = 0x18
    /// Primary key binding (0x19).
    case primaryKeyBinding = 0x19
    /// Direct key (0x1F).
    case directKey = 0x1F
    /// Key revocation (0x20).
    case keyRevocation = 0x20
    /// Subkey revocation (0x28).
    case subkeyRevocation = 0x28
    /// Certification revocation (0x30).
    case certificationRevocation = 0x30
    /// Timestamp (0x40).
    case timestamp = 0x40
    /// Third party confirmation (0x50).
    case thirdPartyConfirmation = 0x50

    /// Whether this type certifies a user ID.
    var isCertification: Bool { (0x10...0x13).contains(rawValue) }
}

/// Key flags (RFC 4880 §5.2.3.21).
public struct KeyFlags: OptionSet, Sendable {
    /// The raw first flag byte.
    public let rawValue: UInt8
    /// Flags from their byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// May certify other keys.
    public static let certify = KeyFlags(rawValue: 0x01)
    /// May sign data.
    public static let sign = KeyFlags(rawValue: 0x02)
    /// May encrypt communications.
    public static let encryptCommunications = KeyFlags(rawValue: 0x04)
    /// May encrypt storage.
    public static let encryptStorage = KeyFlags(rawValue: 0x08)
    /// May authenticate.
    public static let authenticate = KeyFlags(rawValue: 0x20)
    /// Either encryption flag.
    public static let encrypt: KeyFlags = [.encryptCommunications, .encryptStorage]
}
