import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A secret key whose secret part is in the clear, ready to sign or decrypt. Kept in memory only.
public struct UnlockedKey: Sendable {
    /// Algorithm-specific secret material.
    enum Secret: Sendable {
        /// swift-crypto's RSA decryption key is not Sendable, so it is rebuilt from the parts when needed.
        case rsa(signing: _RSA.Signing.PrivateKey, parts: RSAParts)
        case ed25519(Curve25519.Signing.PrivateKey)
        case x25519(Curve25519.KeyAgreement.PrivateKey)
        case p256Signing(P256.Signing.PrivateKey)
        case p256Agreement(P256.KeyAgreement.PrivateKey)
        case ed448(Curve448.Signing.PrivateKey)
        case x448(Curve448.KeyAgreement.PrivateKey)
    }

    /// The public part.
    public let publicKey: PublicKey
    let secret: Secret
    /// The cleartext secret MPIs as they appear in the packet (for re-export).
    let secretMPIs: [UInt8]

    init(publicKey: PublicKey, secretMPIs: [UInt8]) throws {
        self.publicKey = publicKey
        self.secretMPIs = secretMPIs
        var reader = PacketReader(secretMPIs)
        switch publicKey.material {
        case .rsa(let n, let e):
            let d = try reader.mpi(), p = try reader.mpi(), q = try reader.mpi()
            _ = try reader.mpi()  // u = p⁻¹ mod q; BoringSSL recomputes its own CRT values.
            do {
                secret = .rsa(signing: try _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q),
                              parts: RSAParts(n: n, e: e, d: d, p: p, q: q))
            } catch {
                throw PGPError.unsupported("RSA key (swift-crypto accepts 2048 to 16384-bit keys with valid parameters)")
            }
        case .eddsa(let publicKeyBytes):
            let seed = try reader.mpi().leftPadded(to: 32)
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
            guard key.publicKey.rawRepresentation.elementsEqual(publicKeyBytes) else {
                throw PGPError.malformed("Ed25519 secret does not match its public key")
            }
            secret = .ed25519(key)
        case .ecdh(let curve, let point, _, _):
            let mpi = try reader.mpi()
            switch curve {
            case .curve25519:
                // OpenPGP stores the X25519 scalar big-endian; the native form is little-endian.
                let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: Array(mpi.leftPadded(to: 32).reversed()))
                guard key.publicKey.rawRepresentation.elementsEqual(point) else {
                    throw PGPError.malformed("Curve25519 secret does not match its public key")
                }
                secret = .x25519(key)
            case .p256:
                secret = .p256Agreement(try P256.KeyAgreement.PrivateKey(rawRepresentation: mpi.leftPadded(to: 32)))
            case .ed25519:
                throw PGPError.malformed("ECDH on the Ed25519 curve")
            }
        case .ecdsa:
            secret = .p256Signing(try P256.Signing.PrivateKey(rawRepresentation: try reader.mpi().leftPadded(to: 32)))
        case .ed25519(let publicKeyBytes):
            // RFC 9580 §5.5.5.9: the 32-byte native secret, no MPI.
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: reader.take(32))
            guard key.publicKey.rawRepresentation.elementsEqual(publicKeyBytes) else {
                throw PGPError.malformed("Ed25519 secret does not match its public key")
            }
            secret = .ed25519(key)
        case .x25519(let publicKeyBytes):
            // RFC 9580 §5.5.5.7: the 32-byte native (little-endian) secret.
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: reader.take(32))
            guard key.publicKey.rawRepresentation.elementsEqual(publicKeyBytes) else {
                throw PGPError.malformed("X25519 secret does not match its public key")
            }
            secret = .x25519(key)
        case .ed448(let publicKeyBytes):
            // RFC 9580 §5.5.5.10: the 57-byte native secret.
            let key = try Curve448.Signing.PrivateKey(rawRepresentation: reader.take(Curve448.Signing.keySize))
            guard key.publicKey.rawRepresentation == publicKeyBytes else { throw PGPError.malformed("Ed448 secret does not match its public key") }
            secret = .ed448(key)
        case .x448(let publicKeyBytes):
            // RFC 9580 §5.5.5.8: the 56-byte native secret.
            let key = try Curve448.KeyAgreement.PrivateKey(rawRepresentation: reader.take(Curve448.KeyAgreement.keySize))
            guard key.publicKey.rawRepresentation == publicKeyBytes else { throw PGPError.malformed("X448 secret does not match its public key") }
            secret = .x448(key)
        }
    }

    /// Wraps already-built secret material (key generation).
    init(publicKey: PublicKey, secret: Secret, secretMPIs: [UInt8]) {
        self.publicKey = publicKey
        self.secret = secret
        self.secretMPIs = secretMPIs
    }

    /// This key as an unprotected secret key packet body part.
    var unprotected: SecretKey {
        // v6 keys carry no checksum: an unprotected v6 secret is just its fields.
        guard publicKey.version != 6 else { return SecretKey(publicKey: publicKey, protection: .none, secretData: secretMPIs) }
        var data = secretMPIs
        data.appendU16(SecretKey.checksum(secretMPIs))
        return SecretKey(publicKey: publicKey, protection: .none, secretData: data)
    }
}

/// The RSA private key parameters as read from the packet.
struct RSAParts: Sendable {
    let n: [UInt8], e: [UInt8], d: [UInt8], p: [UInt8], q: [UInt8]

    /// The decryption key, built when a message is opened.
    func decryptionKey() throws -> _RSA.Encryption.PrivateKey {
        try _RSA.Encryption.PrivateKey(n: n, e: e, d: d, p: p, q: q)
    }
}
