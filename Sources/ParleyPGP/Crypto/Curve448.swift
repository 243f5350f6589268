import CParleyOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Ed448 (RFC 8032) and X448 (RFC 7748), the keys of RFC 9580's algorithms 28 and 26, shaped like swift-crypto's
/// `Curve25519`. OpenSSL's libcrypto does every curve operation (CParleyOpenSSL, curve448.c); these types only hold
/// the bytes, keep secrets in wiped memory (`SecretBytes`) and check lengths.
enum Curve448 {
    /// Why a curve448 operation was refused; the words never include key material.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Key bytes of the wrong length for their kind.
        case wrongKeyLength(String, expected: Int)
        /// OpenSSL refused the key (or, for X448, the peer key was of low order).
        case refused(String)

        var description: String {
            switch self {
            case .wrongKeyLength(let what, let expected): "an \(what) must be \(expected) bytes"
            case .refused(let what): "OpenSSL refused the \(what)"
            }
        }
    }

    /// Pure Ed448 signatures with an empty context string, as RFC 9580 §5.2.3.5 uses them.
    enum Signing {
        /// Octets in a key (public or private) and in a signature.
        static let keySize = 57, signatureSize = 114

        /// An Ed448 private key: the 57-byte RFC 8032 seed.
        struct PrivateKey: Sendable {
            private let secret: SecretBytes
            /// The matching public key.
            let publicKey: PublicKey

            /// A fresh key from the system's secure generator.
            init() throws { try self.init(rawRepresentation: randomBytes(Signing.keySize)) }

            /// The key with this 57-byte seed.
            init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == Signing.keySize else { throw Failure.wrongKeyLength("Ed448 private key", expected: Signing.keySize) }
                let secret = SecretBytes(rawRepresentation)
                var publicBytes = [UInt8](repeating: 0, count: Signing.keySize)
                let ok = secret.withUnsafeBytes { parley_ed448_public_key($0.bindMemory(to: UInt8.self).baseAddress, &publicBytes) }
                guard ok == 1 else { throw Failure.refused("Ed448 private key") }
                self.secret = secret
                publicKey = try PublicKey(rawRepresentation: publicBytes)
            }

            /// The 57-byte seed (copied out, for a secret key packet).
            var rawRepresentation: [UInt8] { secret.bytes }

            /// The 114-byte signature over `message`.
            func signature<D: DataProtocol>(for message: D) throws -> [UInt8] {
                let message = Array(message)
                var signature = [UInt8](repeating: 0, count: Signing.signatureSize)
                let ok = secret.withUnsafeBytes {
                    parley_ed448_sign($0.bindMemory(to: UInt8.self).baseAddress, message, message.count, &signature)
                }
                guard ok == 1 else { throw Failure.refused("Ed448 signing key") }
                return signature
            }
        }

        /// An Ed448 public key: 57 octets.
        struct PublicKey: Sendable, Equatable {
            /// The 57 octets.
            let rawRepresentation: [UInt8]

            /// The key with these 57 octets (whether they decode to a point is checked when verifying).
            init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == Signing.keySize else { throw Failure.wrongKeyLength("Ed448 public key", expected: Signing.keySize) }
                self.rawRepresentation = Array(rawRepresentation)
            }

            /// Whether `signature` (114 octets) is this key's signature over `message`.
            func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for message: D) -> Bool {
                guard signature.count == Signing.signatureSize else { return false }
                let signature = Array(signature), message = Array(message)
                return parley_ed448_verify(rawRepresentation, message, message.count, signature) == 1
            }
        }
    }

    /// X448 key agreement.
    enum KeyAgreement {
        /// Octets in a key (public or private) and in a shared secret.
        static let keySize = 56

        /// An X448 private key: the 56-byte scalar as stored (OpenSSL clamps it when used).
        struct PrivateKey: Sendable {
            private let secret: SecretBytes
            /// The matching public key.
            let publicKey: PublicKey

            /// A fresh key from the system's secure generator.
            init() throws { try self.init(rawRepresentation: randomBytes(KeyAgreement.keySize)) }

            /// The key with this 56-byte scalar.
            init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == KeyAgreement.keySize else {
                    throw Failure.wrongKeyLength("X448 private key", expected: KeyAgreement.keySize)
                }
                let secret = SecretBytes(rawRepresentation)
                var publicBytes = [UInt8](repeating: 0, count: KeyAgreement.keySize)
                let ok = secret.withUnsafeBytes { parley_x448_public_key($0.bindMemory(to: UInt8.self).baseAddress, &publicBytes) }
                guard ok == 1 else { throw Failure.refused("X448 private key") }
                self.secret = secret
                publicKey = try PublicKey(rawRepresentation: publicBytes)
            }

            /// The 56-byte scalar (copied out, for a secret key packet).
            var rawRepresentation: [UInt8] { secret.bytes }

            /// The 56-byte shared secret with `peer`; throws for a low-order peer key (an all-zero result).
            func sharedSecret(with peer: PublicKey) throws -> SecretBytes {
                var shared = [UInt8](repeating: 0, count: KeyAgreement.keySize)
                defer { parley_cleanse(&shared, shared.count) }
                let ok = secret.withUnsafeBytes {
                    parley_x448_shared_secret($0.bindMemory(to: UInt8.self).baseAddress, peer.rawRepresentation, &shared)
                }
                guard ok == 1 else { throw Failure.refused("X448 peer key") }
                return SecretBytes(shared)
            }
        }

        /// An X448 public key: the 56-octet u-coordinate.
        struct PublicKey: Sendable, Equatable {
            /// The 56 octets.
            let rawRepresentation: [UInt8]

            /// The key with these 56 octets.
            init<D: DataProtocol>(rawRepresentation: D) throws {
                guard rawRepresentation.count == KeyAgreement.keySize else {
                    throw Failure.wrongKeyLength("X448 public key", expected: KeyAgreement.keySize)
                }
                self.rawRepresentation = Array(rawRepresentation)
            }
        }
    }
}
