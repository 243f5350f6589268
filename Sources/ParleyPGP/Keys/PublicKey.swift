import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// A v4 (RFC 4880 §5.5.2) or v6 (RFC 9580 §5.5.2.3) public key or subkey packet: algorithm parameters,
/// fingerprint and key ID.
public struct PublicKey: Sendable, Equatable {
    /// Algorithm-specific public material.
    public enum Material: Sendable, Equatable {
        /// RSA modulus and public exponent (big-endian magnitudes).
        case rsa(n: [UInt8], e: [UInt8])
        /// Legacy EdDSA over Ed25519: the 32-byte public key.
        case eddsa(publicKey: [UInt8])
        /// ECDSA: curve and SEC1 uncompressed point.
        case ecdsa(curve: Curve, point: [UInt8])
        /// ECDH: curve, point (for Curve25519 the 32-byte native u-coordinate), and KDF parameters.
        case ecdh(curve: Curve, point: [UInt8], kdfHash: HashAlgorithm, kdfCipher: SymmetricAlgorithm)
        /// Ed25519 (algorithm 27): the 32-byte native public key.
        case ed25519(publicKey: [UInt8])
        /// X25519 (algorithm 25): the 32-byte native public key.
        case x25519(publicKey: [UInt8])
        /// Ed448 (algorithm 28): the 57-byte native public key.
        case ed448(publicKey: [UInt8])
        /// X448 (algorithm 26): the 56-byte native public key.
        case x448(publicKey: [UInt8])
    }

    /// The packet version: 4 or 6.
    public var version: UInt8 { body.first ?? 4 }

    /// The packet body exactly as read (hashed for fingerprints and signatures).
    public let body: [UInt8]
    /// Creation time, seconds since 1970.
    public let created: UInt32
    /// The public-key algorithm byte.
    public let algorithm: PublicKeyAlgorithm
    /// The key material.
    public let material: Material

    /// Parses a v4 or v6 public key (or the public prefix of a secret key); `reader` stops after the material.
    static func read(from reader: inout PacketReader) throws -> PublicKey {
        let start = reader.offset
        let version = try reader.u8()
        guard version == 4 || version == 6 else { throw PGPError.unsupported("key packet version \(version)") }
        let created = try reader.u32()
        let algorithm = try PublicKeyAlgorithm.from(reader.u8())
        let material: Material
        if version == 6 {
            // v6 states the material's length, and forbids the legacy Curve25519 forms (RFC 9580 §5.5.2.3).
            var fields = PacketReader(try reader.take(Int(reader.u32())))
            guard algorithm != .eddsaLegacy else { throw PGPError.malformed("a v6 key with the legacy EdDSA algorithm") }
            material = try readMaterial(algorithm, from: &fields)
            if case .ecdh(.curve25519, _, _, _) = material { throw PGPError.malformed("a v6 key with legacy Curve25519 ECDH") }
            guard fields.isAtEnd else { throw PGPError.malformed("key material shorter than its stated length") }
        } else {
            material = try readMaterial(algorithm, from: &reader)
        }
        return PublicKey(body: Array(reader.bytes[start..<reader.offset]), created: created, algorithm: algorithm, material: material)
    }

    /// The algorithm-specific public fields (RFC 9580 §5.5.5).
    private static func readMaterial(_ algorithm: PublicKeyAlgorithm, from reader: inout PacketReader) throws -> Material {
        let material: Material
        switch algorithm {
        case .ed25519:
            material = .ed25519(publicKey: try reader.take(32))
        case .x25519:
            material = .x25519(publicKey: try reader.take(32))
        case .ed448:
            material = .ed448(publicKey: try reader.take(Curve448.Signing.keySize))
        case .x448:
            material = .x448(publicKey: try reader.take(Curve448.KeyAgreement.keySize))
        case .rsaEncryptSign, .rsaEncryptOnly, .rsaSignOnly:
            material = .rsa(n: try reader.mpi(), e: try reader.mpi())
        case .eddsaLegacy:
            let curve = try Curve.from(oid: reader.take(Int(reader.u8())))
            guard curve == .ed25519 else { throw PGPError.unsupported("EdDSA on a curve other than Ed25519") }
            material = .eddsa(publicKey: try prefixedPoint(reader.mpi()))
        case .ecdsa:
            let curve = try Curve.from(oid: reader.take(Int(reader.u8())))
            guard curve == .p256 else { throw PGPError.unsupported("ECDSA on this curve") }
            material = .ecdsa(curve: curve, point: try reader.mpi())
        case .ecdh:
            let curve = try Curve.from(oid: reader.take(Int(reader.u8())))
            var point = try reader.mpi()
            if curve == .curve25519 { point = try prefixedPoint(point) }
            guard curve != .ed25519 else { throw PGPError.malformed("ECDH on the Ed25519 signing curve") }
            var kdf = PacketReader(try reader.take(Int(reader.u8())))
            guard try kdf.u8() == 1 else { throw PGPError.unsupported("ECDH KDF parameters version") }
            material = .ecdh(curve: curve, point: point, kdfHash: try .from(kdf.u8()), kdfCipher: try .from(kdf.u8()))
        case .elgamal, .dsa:
            throw PGPError.unsupported(algorithm == .dsa ? "DSA keys" : "ElGamal keys")
        }
        return material
    }

    /// Parses a complete public key packet body.
    public init(packetBody: [UInt8]) throws {
        var reader = PacketReader(packetBody)
        self = try PublicKey.read(from: &reader)
        guard reader.isAtEnd else { throw PGPError.malformed("trailing bytes after the public key") }
    }

    init(body: [UInt8], created: UInt32, algorithm: PublicKeyAlgorithm, material: Material) {
        self.body = body
        self.created = created
        self.algorithm = algorithm
        self.material = material
    }

    /// Builds a key packet from material, for key generation: v4, or v6 (material length stated).
    init(created: UInt32, material: Material, version: UInt8 = 4) {
        let v4 = PublicKey(v4Created: created, material: material)
        guard version == 6 else {
            self = v4
            return
        }
        let fields = Array(v4.body[6...])
        var body: [UInt8] = [6]
        body.appendU32(created)
        body.append(v4.algorithm.rawValue)
        body.appendU32(UInt32(fields.count))
        self.init(body: body + fields, created: created, algorithm: v4.algorithm, material: material)
    }

    private init(v4Created created: UInt32, material: Material) {
        var body: [UInt8] = [4]
        body.appendU32(created)
        let algorithm: PublicKeyAlgorithm
        switch material {
        case .ed25519(let publicKey):
            algorithm = .ed25519
            body += [algorithm.rawValue] + publicKey
        case .x25519(let publicKey):
            algorithm = .x25519
            body += [algorithm.rawValue] + publicKey
        case .ed448(let publicKey):
            algorithm = .ed448
            body += [algorithm.rawValue] + publicKey
        case .x448(let publicKey):
            algorithm = .x448
            body += [algorithm.rawValue] + publicKey
        case .rsa(let n, let e):
            algorithm = .rsaEncryptSign
            body.append(algorithm.rawValue)
            body.appendMPI(n)
            body.appendMPI(e)
        case .eddsa(let publicKey):
            algorithm = .eddsaLegacy
            body += [algorithm.rawValue, UInt8(Curve.ed25519.oid.count)] + Curve.ed25519.oid
            body.appendMPI([0x40] + publicKey)
        case .ecdsa(let curve, let point):
            algorithm = .ecdsa
            body += [algorithm.rawValue, UInt8(curve.oid.count)] + curve.oid
            body.appendMPI(point)
        case .ecdh(let curve, let point, let kdfHash, let kdfCipher):
            algorithm = .ecdh
            body += [algorithm.rawValue, UInt8(curve.oid.count)] + curve.oid
            body.appendMPI(curve == .curve25519 ? [0x40] + point : point)
            body += [3, 1, kdfHash.rawValue, kdfCipher.rawValue]
        }
        self.init(body: body, created: created, algorithm: algorithm, material: material)
    }

    /// The fingerprint: v4, 20 bytes, SHA-1 over 0x99, the 2-byte length and the body; v6, 32 bytes, SHA-256
    /// over 0x9B, the 4-byte length and the body.
    public var fingerprint: [UInt8] {
        version == 6 ? Array(SHA256.hash(data: hashPrefix)) : Array(Insecure.SHA1.hash(data: hashPrefix))
    }

    /// The 8-byte key ID: the low 64 bits of a v4 fingerprint, the high 64 bits of a v6 one.
    public var keyID: [UInt8] { version == 6 ? Array(fingerprint.prefix(8)) : Array(fingerprint.suffix(8)) }

    /// Fingerprint as uppercase hex, the way gpg prints it.
    public var fingerprintHex: String { Hex.upper(fingerprint) }

    /// The bytes that stand for this key inside signature hashes.
    var hashPrefix: [UInt8] {
        if version == 6 {
            var out: [UInt8] = [0x9B]
            out.appendU32(UInt32(body.count))
            return out + body
        }
        var out: [UInt8] = [0x99]
        out.appendU16(body.count)
        return out + body
    }

    /// Whether the algorithm can encrypt (as opposed to only sign).
    public var canEncrypt: Bool {
        switch algorithm {
        case .rsaEncryptSign, .rsaEncryptOnly, .ecdh, .x25519, .x448: true
        default: false
        }
    }

    /// Whether the algorithm can sign.
    public var canSign: Bool {
        switch algorithm {
        case .rsaEncryptSign, .rsaSignOnly, .eddsaLegacy, .ecdsa, .ed25519, .ed448: true
        default: false
        }
    }

    /// Strips the 0x40 "native point" prefix legacy Curve25519 and Ed25519 points carry.
    private static func prefixedPoint(_ mpi: [UInt8]) throws -> [UInt8] {
        guard mpi.count == 33, mpi[0] == 0x40 else { throw PGPError.malformed("Curve25519/Ed25519 point is not 0x40 || 32 bytes") }
        return Array(mpi[1...])
    }
}
