import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import _CryptoExtras

/// PIN rules and the scrypt key-encryption key a PIN gives.
enum PIN {
    /// The fewest characters (grapheme clusters, after NFC) a PIN may have.
    static let minimumLength = 4
    /// The most UTF-8 bytes a PIN may have: bounds the work a hostile caller can ask of scrypt.
    static let maximumBytes = 1024
    /// scrypt cost, as Proton uses for its PIN: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds).
    static let rounds = 32768
    static let blockSize = 8
    static let parallelism = 1
    /// Length of the random salt stored in the file.
    static let saltLength = 16

    /// The NFC-normalised UTF-8 bytes of `pin`, so one PIN typed on two keyboards is the same PIN.
    static func normalized(_ pin: String) throws(VaultError) -> [UInt8] {
        let nfc = pin.nfc
        let bytes = Array(nfc.utf8)
        guard nfc.count >= minimumLength, bytes.count <= maximumBytes else { throw .weakPIN }
        return bytes
    }

    /// KEK = scrypt(NFC UTF-8 PIN, salt, N=32768, r=8, p=1, 32 bytes).
    static func keyEncryptionKey(_ pin: String, salt: [UInt8]) throws(VaultError) -> SymmetricKey {
        var bytes = try normalized(pin)
        defer { bytes.resetBytes() }
        do {
            return try KDF.Scrypt.deriveKey(
                from: bytes, salt: salt, outputByteCount: 32, rounds: rounds, blockSize: blockSize,
                parallelism: parallelism)
        } catch {
            throw .io("scrypt could not run (not enough memory? it needs 32 MiB)")
        }
    }
}
