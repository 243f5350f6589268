/// Reads a marshalled `TPM2B_PUBLIC` (TPM 2.0 Part 2, §12.2.5) far enough to check an object's type and take
/// an ECC object's point — for ECC and KEYEDHASH objects, the two kinds Parley makes. Anything else, or any
/// byte out of place, is refused.
struct TPMPublicArea {
    static let eccType: UInt16 = 0x0023
    static let keyedHashType: UInt16 = 0x0008
    static let nullAlgorithm: UInt16 = 0x0010
    static let nistP256: UInt16 = 0x0003
    /// Size, type, name algorithm, attributes and an empty policy at least.
    static let minimumSize = 10

    let type: UInt16
    let objectAttributes: UInt32
    /// The point of an ECC object on NIST P-256 (32-byte coordinates); nil otherwise.
    let eccPoint: (x: [UInt8], y: [UInt8])?

    init(marshalled bytes: [UInt8]) throws(HardwareKeyError) {
        var reader = Reader(bytes: bytes)
        let size = try reader.u16()
        guard Int(size) == bytes.count - 2 else { throw .malformed("the public area's size does not match its bytes") }
        type = try reader.u16()
        _ = try reader.u16()  // name algorithm
        objectAttributes = try reader.u32()
        _ = try reader.sized()  // authPolicy
        switch type {
        case Self.eccType:
            if try reader.u16() != Self.nullAlgorithm { _ = try reader.u16(); _ = try reader.u16() }  // symmetric: bits, mode
            if try reader.u16() != Self.nullAlgorithm { _ = try reader.u16() }  // scheme: hash
            let curve = try reader.u16()
            if try reader.u16() != Self.nullAlgorithm { _ = try reader.u16() }  // kdf: hash
            let x = try reader.sized(), y = try reader.sized()
            eccPoint = curve == Self.nistP256 && x.count == 32 && y.count == 32 ? (x, y) : nil
        case Self.keyedHashType:
            switch try reader.u16() {
            case 0x0005: _ = try reader.u16()  // HMAC: hash
            case 0x000A: _ = try reader.u16(); _ = try reader.u16()  // XOR: hash, kdf
            case Self.nullAlgorithm: break
            default: throw .malformed("unknown keyed-hash scheme")
            }
            _ = try reader.sized()  // unique: digest
            eccPoint = nil
        default:
            throw .malformed("an object of type \(type), which Parley does not make")
        }
        guard reader.atEnd else { throw .malformed("the public area has bytes after its end") }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var atEnd: Bool { offset == bytes.count }

        mutating func u16() throws(HardwareKeyError) -> UInt16 {
            guard offset + 2 <= bytes.count else { throw .malformed("the public area is truncated") }
            defer { offset += 2 }
            return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
        }

        mutating func u32() throws(HardwareKeyError) -> UInt32 {
            UInt32(try u16()) << 16 | UInt32(try u16())
        }

        mutating func sized() throws(HardwareKeyError) -> [UInt8] {
            let count = Int(try u16())
            guard offset + count <= bytes.count else { throw .malformed("the public area is truncated") }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }
    }
}
