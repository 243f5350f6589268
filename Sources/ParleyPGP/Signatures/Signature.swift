/// A v4 or v6 signature packet (RFC 9580 §5.2.3): hashed and unhashed subpackets, a salt (v6), and the
/// algorithm's fields.
public struct Signature: Sendable, Equatable {
    /// One signature subpacket.
    public struct Subpacket: Sendable, Equatable {
        /// The subpacket type without the critical bit.
        public let type: UInt8
        /// Whether the signer marked it critical.
        public let critical: Bool
        /// The subpacket data.
        public let data: [UInt8]
    }

    /// What the signature certifies.
    public let type: SignatureType
    /// The signing algorithm.
    public let publicKeyAlgorithm: PublicKeyAlgorithm
    /// The hash algorithm.
    public let hashAlgorithm: HashAlgorithm
    /// Subpackets covered by the signature.
    public let hashed: [Subpacket]
    /// Subpackets not covered by the signature (hints only: issuer key ID).
    public let unhashed: [Subpacket]
    /// The first two bytes of the digest, a quick check.
    public let digestPrefix: [UInt8]
    /// The signature MPIs (one for RSA; r and s for EdDSA/ECDSA; for Ed25519 (27) and Ed448 (28) the one native value,
    /// 64 and 114 bytes).
    public let mpis: [[UInt8]]
    /// 4 or 6.
    public let version: UInt8
    /// The v6 salt, hashed before the data (empty for v4).
    public let salt: [UInt8]
    /// version .. end of hashed subpackets: the bytes the signature hashes after the data.
    let hashedHeader: [UInt8]

    /// Parses a signature packet body. Version 3 and unknown versions are unsupported.
    public init(packetBody: [UInt8]) throws {
        var reader = PacketReader(packetBody)
        let version = try reader.u8()
        guard version == 4 || version == 6 else { throw PGPError.unsupported("signature version \(version)") }
        self.version = version
        let typeByte = try reader.u8()
        guard let type = SignatureType(rawValue: typeByte) else { throw PGPError.unsupported("signature type \(typeByte)") }
        self.type = type
        publicKeyAlgorithm = try .from(reader.u8())
        hashAlgorithm = try .from(reader.u8())
        // v6 gives the subpacket areas 4-byte lengths (RFC 9580 §5.2.3).
        func areaLength() throws -> Int { version == 6 ? Int(try reader.u32()) : try reader.u16() }
        let hashedData = try reader.take(areaLength())
        hashedHeader = Array(packetBody[0..<reader.offset])
        hashed = try Signature.subpackets(hashedData)
        unhashed = try Signature.subpackets(reader.take(areaLength()))
        digestPrefix = try reader.take(2)
        if version == 6 {
            salt = try reader.take(Int(reader.u8()))
            guard salt.count == hashAlgorithm.saltSize else { throw PGPError.malformed("v6 signature salt does not fit its hash") }
        } else {
            salt = []
        }
        var mpis: [[UInt8]] = []
        switch publicKeyAlgorithm {
        case .ed25519:
            mpis = [try reader.take(64)]
        case .ed448:
            mpis = [try reader.take(Curve448.Signing.signatureSize)]
        case .rsaEncryptSign, .rsaSignOnly, .rsaEncryptOnly:
            mpis = [try reader.mpi()]
        case .eddsaLegacy, .ecdsa:
            mpis = [try reader.mpi(), try reader.mpi()]
        default:
            throw PGPError.unsupported("signatures by public-key algorithm \(publicKeyAlgorithm.rawValue)")
        }
        guard reader.isAtEnd else { throw PGPError.malformed("trailing bytes after the signature") }
        self.mpis = mpis
    }

    init(type: SignatureType, publicKeyAlgorithm: PublicKeyAlgorithm, hashAlgorithm: HashAlgorithm,
         hashed: [Subpacket], unhashed: [Subpacket], digestPrefix: [UInt8], mpis: [[UInt8]], hashedHeader: [UInt8],
         version: UInt8 = 4, salt: [UInt8] = []) {
        self.version = version
        self.salt = salt
        self.type = type
        self.publicKeyAlgorithm = publicKeyAlgorithm
        self.hashAlgorithm = hashAlgorithm
        self.hashed = hashed
        self.unhashed = unhashed
        self.digestPrefix = digestPrefix
        self.mpis = mpis
        self.hashedHeader = hashedHeader
    }

    /// The packet body in wire form.
    public var body: [UInt8] {
        var out = hashedHeader
        let unhashedData = Signature.encode(unhashed)
        if version == 6 { out.appendU32(UInt32(unhashedData.count)) } else { out.appendU16(unhashedData.count) }
        out += unhashedData + digestPrefix
        if version == 6 { out += [UInt8(salt.count)] + salt }
        if publicKeyAlgorithm == .ed25519 || publicKeyAlgorithm == .ed448 { return out + mpis.joined() }
        for mpi in mpis { out.appendMPI(mpi) }
        return out
    }

    /// Reads a subpacket area (RFC 4880 §5.2.3.1).
    static func subpackets(_ data: [UInt8]) throws -> [Subpacket] {
        var reader = PacketReader(data)
        var result: [Subpacket] = []
        while !reader.isAtEnd {
            let first = Int(try reader.u8())
            let length: Int
            switch first {
            case 0..<192: length = first
            case 192..<255: length = (first - 192) << 8 + Int(try reader.u8()) + 192
            default: length = Int(try reader.u32())
            }
            guard length >= 1 else { throw PGPError.malformed("empty signature subpacket") }
            let typeByte = try reader.u8()
            result.append(Subpacket(type: typeByte & 0x7F, critical: typeByte & 0x80 != 0, data: try reader.take(length - 1)))
        }
        return result
    }

    /// Writes a subpacket area.
    static func encode(_ subpackets: [Subpacket]) -> [UInt8] {
        var out: [UInt8] = []
        for subpacket in subpackets {
            let length = subpacket.data.count + 1
            if length < 192 {
                out.append(UInt8(length))
            } else {
                out.append(0xFF)
                out.appendU32(UInt32(length))
            }
            out.append(subpacket.type | (subpacket.critical ? 0x80 : 0))
            out += subpacket.data
        }
        return out
    }
}
