/// The file a hardware key lives in: format "PHK1" (docs/FORMATS.md §17). It holds the TPM's public area and
/// its private area encrypted by the TPM, so it opens only through the TPM that made it.
public struct HardwareKeyBlob: Equatable, Sendable {
    /// What the blob holds.
    public enum Kind: UInt8, Sendable {
        /// A P-256 key for ECDH.
        case p256 = 1
        /// A small secret, sealed.
        case sealedSecret = 2
    }

    /// The first four bytes of every blob (docs/FORMATS.md §17).
    public static let magic: [UInt8] = Array("PHK1".utf8)
    static let tpmDevice: UInt8 = 1
    static let needsPINFlag: UInt8 = 1
    /// Largest public or private area accepted.
    static let maximumArea = 1_024

    /// What the blob holds.
    public let kind: Kind
    /// Whether the object's authorization is a PIN.
    public let needsPIN: Bool
    /// `TPM2B_PUBLIC`, marshalled.
    let publicArea: [UInt8]
    /// `TPM2B_PRIVATE`, marshalled.
    let privateArea: [UInt8]

    init(kind: Kind, needsPIN: Bool, publicArea: [UInt8], privateArea: [UInt8]) {
        self.kind = kind
        self.needsPIN = needsPIN
        self.publicArea = publicArea
        self.privateArea = privateArea
    }

    /// Reads a blob, refusing anything that is not exactly one, in words.
    public init(bytes: [UInt8]) throws(HardwareKeyError) {
        guard bytes.count >= 7, Array(bytes[0..<4]) == Self.magic else { throw .malformed("it does not start with PHK1") }
        guard let kind = Kind(rawValue: bytes[4]) else { throw .malformed("unknown kind \(bytes[4])") }
        guard bytes[5] & ~Self.needsPINFlag == 0 else { throw .malformed("unknown flags") }
        guard bytes[6] == Self.tpmDevice else { throw .malformed("unknown device \(bytes[6])") }
        var offset = 7
        func area(_ name: String, minimum: Int) throws(HardwareKeyError) -> [UInt8] {
            guard offset + 2 <= bytes.count else { throw .malformed("the \(name) area is missing") }
            let size = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard size >= minimum, size <= Self.maximumArea else { throw .malformed("the \(name) area's size \(size) is out of range") }
            guard offset + 2 + size <= bytes.count else { throw .malformed("the \(name) area is truncated") }
            defer { offset += 2 + size }
            return Array(bytes[offset..<(offset + 2 + size)])
        }
        let publicArea = try area("public", minimum: TPMPublicArea.minimumSize)
        let privateArea = try area("private", minimum: 1)
        guard offset == bytes.count else { throw .malformed("\(bytes.count - offset) bytes follow the key") }
        let parsed = try TPMPublicArea(marshalled: publicArea)
        guard parsed.type == (kind == .p256 ? TPMPublicArea.eccType : TPMPublicArea.keyedHashType) else {
            throw .malformed("its public area is not of its kind")
        }
        if kind == .p256, parsed.eccPoint == nil { throw .malformed("its public area holds no P-256 point") }
        self.init(kind: kind, needsPIN: bytes[5] & Self.needsPINFlag != 0, publicArea: publicArea, privateArea: privateArea)
    }

    /// The blob's bytes.
    public var bytes: [UInt8] {
        Self.magic + [kind.rawValue, needsPIN ? Self.needsPINFlag : 0, Self.tpmDevice] + publicArea + privateArea
    }

    /// The uncompressed P-256 point (0x04 ‖ x ‖ y) of a kind-1 blob.
    public var publicPoint: [UInt8]? {
        guard kind == .p256, let point = try? TPMPublicArea(marshalled: publicArea).eccPoint else { return nil }
        return [0x04] + point.x + point.y
    }
}
