import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// "ECP1": a secret (usually a private key) sealed under a password.
///
/// Layout: `"ECP1" || salt(16) || iterations(u32 BE) || nonce(12) || ciphertext || tag(16)`.
/// The key is PBKDF2-HMAC-SHA256 of the NFC-normalised UTF-8 password; AES-256-GCM
/// authenticates the 24 header bytes as associated data. See docs/FORMATS.md.
public struct KeyEnvelope: Sendable, Equatable {
    /// The four magic bytes that open every version-1 envelope.
    public static let magic: [UInt8] = Array("ECP1".utf8)
    /// PBKDF2 iterations used when the caller does not choose.
    public static let defaultIterations: UInt32 = 600_000
    /// The fewest iterations `seal` accepts (swift-crypto's and OWASP's floor for PBKDF2-SHA256).
    public static let minimumSealIterations: UInt32 = 210_000
    /// The fewest iterations `open` accepts; lower counts are treated as corruption.
    public static let minimumOpenIterations: UInt32 = 1_000
    /// The most iterations either side accepts, so a hostile envelope cannot stall a device.
    public static let maximumIterations: UInt32 = 10_000_000
    /// The largest secret an envelope may hold.
    public static let maximumSecretLength = 1 << 20

    static let saltLength = 16
    static let nonceLength = 12
    static let tagLength = 16
    static let headerLength = 24

    /// The envelope's bytes, exactly as stored.
    public let bytes: [UInt8]

    /// Wraps stored envelope bytes without checking them; `open` checks everything.
    public init<D: DataProtocol>(bytes: D) {
        self.bytes = Array(bytes)
    }

    /// Seals `secret` under `password` with a fresh random salt and nonce.
    public static func seal<D: DataProtocol>(
        _ secret: D,
        password: String,
        iterations: UInt32 = defaultIterations,
        random: some RandomSource = SystemRandomSource()
    ) throws(KeyEnvelopeError) -> KeyEnvelope {
        guard (minimumSealIterations...maximumIterations).contains(iterations) else {
            throw .iterationsOutOfRange
        }
        guard !secret.isEmpty, secret.count <= maximumSecretLength else { throw .secretSizeOutOfRange }
        let salt = random.bytes(saltLength)
        let nonce = random.bytes(nonceLength)
        return try seal(secret, password: password, salt: salt, iterations: iterations, nonce: nonce)
    }

    /// Seals with caller-chosen salt, iteration count and nonce: for known-answer tests only.
    static func seal<D: DataProtocol>(
        _ secret: D, password: String, salt: [UInt8], iterations: UInt32, nonce: [UInt8]
    ) throws(KeyEnvelopeError) -> KeyEnvelope {
        var header = magic + salt
        header.appendBigEndian(iterations)
        let key = try deriveKey(password: password, salt: salt, iterations: iterations)
        do {
            let box = try AES.GCM.seal(
                secret, using: key, nonce: AES.GCM.Nonce(data: nonce), authenticating: header)
            return KeyEnvelope(bytes: header + nonce + box.ciphertext + box.tag)
        } catch {
            throw .cryptoFailure
        }
    }

    /// Opens the envelope with `password` and returns the secret.
    ///
    /// Structural damage is `.corruptEnvelope`; a failed authentication is `.wrongPassword`,
    /// because with this layout a wrong password and an altered ciphertext look the same.
    public func open(password: String) throws(KeyEnvelopeError) -> [UInt8] {
        let parts = try parse()
        let key = try Self.deriveKey(password: password, salt: parts.salt, iterations: parts.iterations)
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: parts.nonce), ciphertext: parts.ciphertext, tag: parts.tag)
            return Array(try AES.GCM.open(box, using: key, authenticating: parts.header))
        } catch {
            throw .wrongPassword
        }
    }

    /// Opens with `oldPassword` and seals the same secret again under `newPassword`.
    public func rewrapped(
        from oldPassword: String,
        to newPassword: String,
        iterations: UInt32 = defaultIterations,
        random: some RandomSource = SystemRandomSource()
    ) throws(KeyEnvelopeError) -> KeyEnvelope {
        let secret = try open(password: oldPassword)
        return try Self.seal(secret, password: newPassword, iterations: iterations, random: random)
    }

    /// The PBKDF2 iteration count recorded in the header, if the header is intact.
    public var iterations: UInt32? { try? parse().iterations }
}
