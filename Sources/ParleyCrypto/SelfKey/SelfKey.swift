import Crypto
import Foundation

/// The key an account uses to encrypt copies of its own messages for its history.
///
/// Derived from the identity seed: HKDF-SHA256(salt: 32 zero bytes, ikm: seed,
/// info: "Parley_SelfKey_v1") → 32 bytes. Sealed copies are
/// `0x01 || nonce(12) || ciphertext || tag(16)`, AES-256-GCM over caller-given
/// associated data (which should name the conversation and message the copy belongs to).
public struct SelfKey: Sendable {
    /// The HKDF info string.
    public static let info = "Parley_SelfKey_v1"
    /// Version byte of a sealed copy.
    public static let version: UInt8 = 0x01
    static let nonceLength = 12
    static let tagLength = 16

    private let key: SymmetricKey

    /// Derives the self key from a 32-byte Ed25519 identity seed.
    public init<D: DataProtocol>(identitySeed: D) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Array(identitySeed)),
            salt: [UInt8](repeating: 0, count: 32),
            info: Array(Self.info.utf8),
            outputByteCount: 32)
    }

    /// Derives the self key from an Ed25519 identity private key.
    public init(identityKey: Curve25519.Signing.PrivateKey) {
        self.init(identitySeed: identityKey.rawRepresentation)
    }

    /// Whether this key equals `bytes`, compared in constant time (for tests and migrations).
    public func matches<D: DataProtocol>(_ bytes: D) -> Bool {
        key.withUnsafeBytes { ConstantTime.equals(Array($0), bytes) }
    }

    /// Seals `plaintext` with a fresh random nonce, bound to `associatedData`.
    public func seal<P: DataProtocol, A: DataProtocol>(
        _ plaintext: P, associatedData: A, random: some RandomSource = SystemRandomSource()
    ) throws(SelfKeyError) -> [UInt8] {
        let nonce = random.bytes(Self.nonceLength)
        do {
            let box = try AES.GCM.seal(
                plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: associatedData)
            return [Self.version] + nonce + box.ciphertext + box.tag
        } catch {
            throw .cryptoFailure
        }
    }

    /// Opens a sealed copy; any mismatch in key, bytes or associated data is one opaque error.
    public func open<S: DataProtocol, A: DataProtocol>(
        _ sealed: S, associatedData: A
    ) throws(SelfKeyError) -> [UInt8] {
        var reader = ByteReader(sealed)
        do {
            guard try reader.readUInt8() == Self.version else { throw SelfKeyError.unsupportedVersion }
            let nonce = try reader.read(Self.nonceLength)
            guard reader.remaining >= Self.tagLength else { throw SelfKeyError.malformed }
            let ciphertext = try reader.read(reader.remaining - Self.tagLength)
            let tag = try reader.read(Self.tagLength)
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
            return Array(try AES.GCM.open(box, using: key, authenticating: associatedData))
        } catch let error as SelfKeyError {
            throw error
        } catch is ByteReader.Error {
            throw .malformed
        } catch {
            throw .couldNotDecrypt
        }
    }
}

/// Why a self-encrypted copy could not be sealed or opened.
public enum SelfKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The copy does not start with a version this build reads.
    case unsupportedVersion
    /// The copy is too short to hold a nonce and a tag.
    case malformed
    /// The copy did not authenticate under this key and associated data.
    case couldNotDecrypt
    /// The cryptographic library refused an operation that should not fail.
    case cryptoFailure

    public var description: String {
        switch self {
        case .unsupportedVersion: "the stored copy has an unknown format version"
        case .malformed: "the stored copy is truncated"
        case .couldNotDecrypt: "could not decrypt or authenticate the stored copy"
        case .cryptoFailure: "the cryptographic library failed unexpectedly"
        }
    }
}
