import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A public-key encrypted session key packet: version 3 (RFC 4880 §5.1, RFC 6637 §10) naming the recipient by
/// key ID, or version 6 (RFC 9580 §5.1.2) naming it by fingerprint and leaving the cipher to the SEIPD v2 packet.
public struct PKESK: Sendable {
    /// 3 or 6.
    public let version: UInt8
    /// v3: the recipient key ID (all zeros for an anonymous recipient); v6: the key ID of `fingerprint`, or empty.
    public let keyID: [UInt8]
    /// v6: the recipient key's fingerprint (20 bytes for a v4 key, 32 for a v6 key), empty for an anonymous recipient.
    public let fingerprint: [UInt8]
    /// The recipient key's algorithm.
    public let algorithm: PublicKeyAlgorithm
    /// RSA: the encrypted MPI. ECDH: the ephemeral point MPI then the wrapped key. X25519 and X448: the ephemeral key,
    /// the wrapped key, and (v3) the cleartext cipher octet.
    let fields: [[UInt8]]

    /// Parses a PKESK body.
    public init(packetBody: [UInt8]) throws {
        var reader = PacketReader(packetBody)
        version = try reader.u8()
        switch version {
        case 3:
            keyID = try reader.take(8)
            fingerprint = []
        case 6:
            let named = try reader.take(Int(reader.u8()))
            if named.isEmpty {
                fingerprint = []
                keyID = []
            } else {
                guard (named[0] == 6 && named.count == 33) || (named[0] == 4 && named.count == 21) else {
                    throw PGPError.malformed("PKESK recipient fingerprint")
                }
                fingerprint = Array(named[1...])
                keyID = named[0] == 6 ? Array(fingerprint.prefix(8)) : Array(fingerprint.suffix(8))
            }
        default:
            throw PGPError.unsupported("PKESK version \(version)")
        }
        algorithm = try .from(reader.u8())
        switch algorithm {
        case .rsaEncryptSign, .rsaEncryptOnly:
            fields = [try reader.mpi()]
        case .ecdh:
            let point = try reader.mpi()
            fields = [point, try reader.take(Int(reader.u8()))]
        case .x25519, .x448:
            // RFC 9580 §5.1.6 and §5.1.7: ephemeral key (32 or 56 octets), then a length and (v3 only) the cipher in
            // the clear, then the wrapped key.
            let ephemeral = try reader.take(algorithm == .x448 ? Curve448.KeyAgreement.keySize : 32)
            var wrapped = PacketReader(try reader.take(Int(reader.u8())))
            let cipher = version == 3 ? [try wrapped.u8()] : []
            fields = [ephemeral, wrapped.rest(), cipher]
        default:
            throw PGPError.unsupported("session keys encrypted with public-key algorithm \(algorithm.rawValue)")
        }
        guard reader.isAtEnd else { throw PGPError.malformed("trailing bytes after the PKESK") }
    }

    private init(version: UInt8, recipient: PublicKey, fields: [[UInt8]]) {
        self.version = version
        keyID = recipient.keyID
        fingerprint = version == 6 ? recipient.fingerprint : []
        algorithm = recipient.algorithm
        self.fields = fields
    }

    /// Whether this packet may be for `key`: it names it, or names no one.
    func isFor(_ key: PublicKey) -> Bool {
        if version == 6 { return fingerprint.isEmpty || fingerprint == key.fingerprint }
        return keyID == key.keyID || keyID.allSatisfy { $0 == 0 }
    }

    /// The packet body.
    var body: [UInt8] {
        var out: [UInt8] = [version]
        if version == 6 {
            let named = fingerprint.isEmpty ? [] : [fingerprint.count == 32 ? 6 : 4] + fingerprint
            out += [UInt8(named.count)] + named
        } else {
            out += keyID
        }
        out.append(algorithm.rawValue)
        switch algorithm {
        case .ecdh:
            out.appendMPI(fields[0])
            out += [UInt8(fields[1].count)] + fields[1]
        case .x25519, .x448:
            out += fields[0] + [UInt8(fields[2].count + fields[1].count)] + fields[2] + fields[1]
        default:
            out.appendMPI(fields[0])
        }
        return out
    }

    /// Recovers the session key with `key`; `.noMatchingKey` when it is not the recipient. A v6 packet carries no
    /// cipher: the key is for `dataCipher`, the SEIPD v2 header's.
    func decrypt(with key: UnlockedKey, dataCipher: SymmetricAlgorithm? = nil) throws -> SessionKey {
        let cipher = version == 6 ? dataCipher : nil
        if version == 6 && cipher == nil { throw PGPError.malformed("a v6 PKESK before data that is not SEIPD v2") }
        switch key.secret {
        case .rsa(_, let parts):
            guard case .rsa(let n, _) = key.publicKey.material else { throw PGPError.noMatchingKey }
            let length = n.drop(while: { $0 == 0 }).count
            guard let plain = try? parts.decryptionKey().decrypt(fields[0].leftPadded(to: length), padding: ._WEAK_AND_INSECURE_PKCS_V1_5) else {
                throw PGPError.noMatchingKey
            }
            return try SessionKey.fromChecksummed(Array(plain), cipher: cipher)
        case .x25519(let secret) where algorithm == .x25519:
            guard case .x25519(let recipient) = key.publicKey.material else { throw PGPError.noMatchingKey }
            let ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: fields[0])
            let shared = try secret.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
            let kek = Self.x25519KEK(ephemeral: fields[0], recipient: recipient, shared: shared)
            guard let unwrapped = try? AES.KeyWrap.unwrap(fields[1], using: kek) else { throw PGPError.noMatchingKey }
            let algorithm = try cipher ?? SymmetricAlgorithm.from(fields[2].first ?? 0)
            return try SessionKey(algorithm: algorithm, key: unwrapped.withUnsafeBytes { Array($0) })
        case .x25519(let secret):
            // Only an ECDH packet is for a legacy Curve25519 key; an X448 one (anonymous recipient) is simply not ours.
            guard algorithm == .ecdh else { throw PGPError.noMatchingKey }
            let point = fields[0]
            guard point.count == 33, point[0] == 0x40 else { throw PGPError.malformed("ECDH ephemeral point") }
            let ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: point[1...])
            let shared = try secret.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
            return try ECDHKeyWrap.unwrap(fields[1], sharedSecret: shared, for: key.publicKey, cipher: cipher)
        case .p256Agreement(let secret):
            guard algorithm == .ecdh else { throw PGPError.noMatchingKey }
            let ephemeral = try P256.KeyAgreement.PublicKey(x963Representation: fields[0])
            let shared = try secret.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
            return try ECDHKeyWrap.unwrap(fields[1], sharedSecret: shared, for: key.publicKey, cipher: cipher)
        case .x448(let secret):
            return try decryptX448(with: secret, recipient: key.publicKey, cipher: cipher)
        case .ed25519, .p256Signing, .ed448:
            throw PGPError.noMatchingKey
        }
    }

    /// RFC 9580 §5.1.6: HKDF-SHA256 over ephemeral ‖ recipient ‖ shared secret, info "OpenPGP X25519", 16 bytes
    /// for AES-128 key wrap.
    static func x25519KEK(ephemeral: [UInt8], recipient: [UInt8], shared: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: ephemeral + recipient + shared),
                               info: Array("OpenPGP X25519".utf8), outputByteCount: 16)
    }

    /// Encrypts `sessionKey` to `recipient` (RSA PKCS#1 v1.5, ECDH, X25519 or X448): a v6 packet when `version` is 6
    /// (for SEIPD v2), else v3.
    static func encrypt(_ sessionKey: SessionKey, to recipient: PublicKey, version: UInt8 = 3) throws -> PKESK {
        // v6 leaves the cipher to the SEIPD v2 header: the key alone, with the checksum for RSA and ECDH.
        let checksummed = version == 6 ? sessionKey.keyWithChecksum : sessionKey.withChecksum
        switch recipient.material {
        case .rsa(let n, let e):
            guard let key = try? _RSA.Encryption.PublicKey(n: n, e: e) else {
                throw PGPError.unsupported("RSA key size (swift-crypto encrypts to 2048 to 16384-bit keys)")
            }
            let encrypted = try key.encrypt(checksummed, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
            return PKESK(version: version, recipient: recipient, fields: [Array(encrypted)])
        case .ecdh(.curve25519, let point, _, _):
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: point)).withUnsafeBytes { Array($0) }
            let wrapped = try ECDHKeyWrap.wrap(checksummed, sharedSecret: shared, for: recipient)
            return PKESK(version: version, recipient: recipient, fields: [[0x40] + Array(ephemeral.publicKey.rawRepresentation), wrapped])
        case .ecdh(.p256, let point, _, _):
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(x963Representation: point)).withUnsafeBytes { Array($0) }
            let wrapped = try ECDHKeyWrap.wrap(checksummed, sharedSecret: shared, for: recipient)
            return PKESK(version: version, recipient: recipient, fields: [Array(ephemeral.publicKey.x963Representation), wrapped])
        case .x25519(let point):
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let ephemeralPublic = Array(ephemeral.publicKey.rawRepresentation)
            let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: point)).withUnsafeBytes { Array($0) }
            let kek = x25519KEK(ephemeral: ephemeralPublic, recipient: point, shared: shared)
            let wrapped = Array(try AES.KeyWrap.wrap(SymmetricKey(data: sessionKey.key), using: kek))
            return PKESK(version: version, recipient: recipient,
                         fields: [ephemeralPublic, wrapped, version == 6 ? [] : [sessionKey.algorithm.rawValue]])
        case .x448(let point):
            return PKESK(version: version, recipient: recipient, fields: try x448Fields(sessionKey, to: point, version: version))
        default:
            throw PGPError.unusableKey("this key cannot encrypt")
        }
    }
}
