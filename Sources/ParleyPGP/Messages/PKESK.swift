import Crypto
import _CryptoExtras
import Foundation

/// A v3 public-key encrypted session key packet (RFC 4880 §5.1, RFC 6637 §10).
public struct PKESK: Sendable {
    /// The recipient key ID (all zeros for an anonymous recipient).
    public let keyID: [UInt8]
    /// The recipient key's algorithm.
    public let algorithm: PublicKeyAlgorithm
    /// RSA: the encrypted MPI. ECDH: the ephemeral point MPI then the wrapped key.
    let fields: [[UInt8]]

    /// Parses a PKESK body.
    public init(packetBody: [UInt8]) throws {
        var reader = ByteReader(packetBody)
        let version = try reader.u8()
        guard version == 3 else { throw PGPError.unsupported("PKESK version \(version)") }
        keyID = try reader.take(8)
        algorithm = try .from(reader.u8())
        switch algorithm {
        case .rsaEncryptSign, .rsaEncryptOnly:
            fields = [try reader.mpi()]
        case .ecdh:
            let point = try reader.mpi()
            fields = [point, try reader.take(Int(reader.u8()))]
        default:
            throw PGPError.unsupported("session keys encrypted with public-key algorithm \(algorithm.rawValue)")
        }
        guard reader.isAtEnd else { throw PGPError.malformed("trailing bytes after the PKESK") }
    }

    private init(keyID: [UInt8], algorithm: PublicKeyAlgorithm, fields: [[UInt8]]) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.fields = fields
    }

    /// The packet body.
    var body: [UInt8] {
        var out: [UInt8] = [3] + keyID + [algorithm.rawValue]
        switch algorithm {
        case .ecdh:
            out.appendMPI(fields[0])
            out += [UInt8(fields[1].count)] + fields[1]
        default:
            out.appendMPI(fields[0])
        }
        return out
    }

    /// Recovers the session key with `key`; `.noMatchingKey` when it is not the recipient.
    func decrypt(with key: UnlockedKey) throws -> SessionKey {
        switch key.secret {
        case .rsa(_, let parts):
            guard case .rsa(let n, _) = key.publicKey.material else { throw PGPError.noMatchingKey }
            let length = n.drop(while: { $0 == 0 }).count
            guard let plain = try? parts.decryptionKey().decrypt(fields[0].leftPadded(to: length), padding: ._WEAK_AND_INSECURE_PKCS_V1_5) else {
                throw PGPError.noMatchingKey
            }
            return try SessionKey.fromChecksummed(Array(plain))
        case .x25519(let secret):
            let point = fields[0]
            guard point.count == 33, point[0] == 0x40 else { throw PGPError.malformed("ECDH ephemeral point") }
            let ephemeral = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: point[1...])
            let shared = try secret.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
            return try ECDHKeyWrap.unwrap(fields[1], sharedSecret: shared, for: key.publicKey)
        case .p256Agreement(let secret):
            let ephemeral = try P256.KeyAgreement.PublicKey(x963Representation: fields[0])
            let shared = try secret.sharedSecretFromKeyAgreement(with: ephemeral).withUnsafeBytes { Array($0) }
            return try ECDHKeyWrap.unwrap(fields[1], sharedSecret: shared, for: key.publicKey)
        case .ed25519, .p256Signing:
            throw PGPError.noMatchingKey
        }
    }

    /// Encrypts `sessionKey` to `recipient` (RSA PKCS#1 v1.5 or ECDH).
    static func encrypt(_ sessionKey: SessionKey, to recipient: PublicKey) throws -> PKESK {
        switch recipient.material {
        case .rsa(let n, let e):
            guard let key = try? _RSA.Encryption.PublicKey(n: n, e: e) else {
                throw PGPError.unsupported("RSA key size (swift-crypto encrypts to 2048 to 16384-bit keys)")
            }
            let encrypted = try key.encrypt(sessionKey.withChecksum, padding: ._WEAK_AND_INSECURE_PKCS_V1_5)
            return PKESK(keyID: recipient.keyID, algorithm: recipient.algorithm, fields: [Array(encrypted)])
        case .ecdh(.curve25519, let point, _, _):
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(rawRepresentation: point)).withUnsafeBytes { Array($0) }
            let wrapped = try ECDHKeyWrap.wrap(sessionKey, sharedSecret: shared, for: recipient)
            return PKESK(keyID: recipient.keyID, algorithm: .ecdh, fields: [[0x40] + Array(ephemeral.publicKey.rawRepresentation), wrapped])
        case .ecdh(.p256, let point, _, _):
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let shared = try ephemeral.sharedSecretFromKeyAgreement(with: .init(x963Representation: point)).withUnsafeBytes { Array($0) }
            let wrapped = try ECDHKeyWrap.wrap(sessionKey, sharedSecret: shared, for: recipient)
            return PKESK(keyID: recipient.keyID, algorithm: .ecdh, fields: [Array(ephemeral.publicKey.x963Representation), wrapped])
        default:
            throw PGPError.unusableKey("this key cannot encrypt")
        }
    }
}
