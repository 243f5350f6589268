/// One OpenPGP packet: its tag and its (reassembled) body.
public struct Packet: Sendable, Equatable {
    /// Packet tags Parley reads or writes (RFC 4880 §4.3).
    public enum Tag: UInt8, Sendable {
        /// Public key encrypted session key (1).
        case publicKeyEncryptedSessionKey = 1
        /// Signature (2).
        case signature = 2
        /// Symmetric key encrypted session key (3).
        case symmetricKeyEncryptedSessionKey = 3
        /// One pass signature (4).
        case onePassSignature = 4
        /// Secret key (5).
        case secretKey = 5
        /// Public key (6).
        case publicKey = 6
        /// Secret subkey (7).
        case secretSubkey = 7
        /// Compressed data (8).
        case compressedData = 8
        /// Symmetrically encrypted data (9).
        case symmetricallyEncryptedData = 9
        /// Marker (10).
        case marker = 10
        /// Literal data (11).
        case literalData = 11
        /// Trust (12).
        case trust = 12
        /// User i d (13).
        case userID = 13
        /// Public subkey (14).
        case publicSubkey = 14
        /// User attribute (17).
        case userAttribute = 17
        /// Sym encrypted integrity protected data (18).
        case symEncryptedIntegrityProtectedData = 18
        /// Modification detection code (19).
        case modificationDetectionCode = 19
        /// Padding (21, RFC 9580 §5.14): random bytes to hide a message's size; ignored when read.
        case padding = 21
    }

    /// The raw tag number (unknown tags are kept so callers can skip them).
    public let tagNumber: UInt8
    /// The packet body, with any partial-length chunks joined.
    public let body: [UInt8]

    /// A packet with the given tag number and body.
    public init(tagNumber: UInt8, body: [UInt8]) {
        self.tagNumber = tagNumber
        self.body = body
    }

    /// A packet with a known tag.
    public init(_ tag: Tag, body: [UInt8]) {
        self.init(tagNumber: tag.rawValue, body: body)
    }

    /// The known tag, or nil for tags Parley does not understand.
    public var tag: Tag? { Tag(rawValue: tagNumber) }

    /// The packet in new format with a definite length, as Parley always writes.
    public var encoded: [UInt8] {
        [0xC0 | tagNumber] + Self.lengthHeader(body.count) + body
    }

    /// A new-format definite length header for `length` bytes (also used by the streaming writers).
    static func lengthHeader(_ length: Int) -> [UInt8] {
        var out: [UInt8] = []
        if length < 192 {
            out.append(UInt8(length))
        } else if length < 8384 {
            let value = length - 192
            out.append(UInt8(value >> 8 + 192))
            out.append(UInt8(value & 0xFF))
        } else {
            out.append(0xFF)
            out.appendU32(UInt32(length))
        }
        return out
    }
}

extension Array where Element == Packet {
    /// The packets concatenated in wire form.
    public var encoded: [UInt8] { flatMap(\.encoded) }
}
