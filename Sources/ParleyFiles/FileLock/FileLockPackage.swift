import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// FileLock's package: four length-prefixed chunks (wrapped key, nonce, ciphertext, tag).
///
/// `u32(113) || ECIES(fileKey) || u32(12) || nonce || u32(n) || ciphertext || u32(16) || tag`,
/// the content under AES-256-GCM. See docs/FORMATS.md §9. Pure: bytes in, bytes out.
public enum FileLockPackage {
    /// Length of the ECIES-wrapped 32-byte AES key.
    public static let wrappedKeyLength = 113
    /// The four bytes every package starts with: the wrapped key's length, 113.
    public static let prefix: [UInt8] = [0, 0, 0, 113]

    /// The four chunks of a well-formed package.
    struct Parts {
        let wrappedKey: [UInt8]
        let nonce: [UInt8]
        let ciphertext: [UInt8]
        let tag: [UInt8]
    }

    /// Seals `plaintext` for `recipient` with a fresh key, nonce and ephemeral key from `random`.
    public static func seal<D: DataProtocol>(
        _ plaintext: D, to recipient: P256.KeyAgreement.PublicKey, random: some RandomSource = SystemRandomSource()
    ) throws -> [UInt8] {
        try seal(
            plaintext, to: recipient, fileKey: random.bytes(32), nonce: random.bytes(12),
            ephemeral: P256.KeyAgreement.PrivateKey(random: random))
    }

    /// Seals with caller-chosen secrets: for known-answer tests only.
    static func seal<D: DataProtocol>(
        _ plaintext: D, to recipient: P256.KeyAgreement.PublicKey, fileKey: [UInt8], nonce: [UInt8],
        ephemeral: P256.KeyAgreement.PrivateKey
    ) throws -> [UInt8] {
        guard plaintext.count <= Int(UInt32.max) else {
            throw FileError.invalidRecipients("a FileLock package holds at most 4 GiB; use the v1 format")
        }
        let wrapped = try AppleECIES.seal(fileKey, to: recipient, variant: .cofactor, ephemeral: ephemeral)
        let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: fileKey), nonce: AES.GCM.Nonce(data: nonce))
        var out: [UInt8] = []
        out.reserveCapacity(plaintext.count + 200)
        for part in [wrapped, nonce, Array(box.ciphertext), Array(box.tag)] {
            out.appendBigEndian(UInt32(part.count))
            out += part
        }
        return out
    }

    /// Opens a package with `key`, trying the `cofactor` then the `variable-iv` key wrap.
    public static func open<D: DataProtocol>(_ package: D, using key: some P256KeyAgreementSecret) throws -> [UInt8] {
        let parts = try parse(package)
        for variant in [AppleECIES.Variant.cofactor, .variableIV] {
            let fileKey: [UInt8]
            do {
                fileKey = try AppleECIES.open(parts.wrappedKey, using: key, variant: variant)
            } catch .keyUnavailable(let why) {
                throw FileError.invalidKey(why)
            } catch {
                continue
            }
            guard fileKey.count == 32 else { continue }
            guard
                let box = try? AES.GCM.SealedBox(
                    nonce: AES.GCM.Nonce(data: parts.nonce), ciphertext: parts.ciphertext, tag: parts.tag),
                let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: fileKey))
            else { throw FileError.cannotDecrypt }
            return Array(plaintext)
        }
        throw FileError.cannotDecrypt
    }

    /// Splits a package into its chunks, reading lengths from any offset without trapping.
    static func parse<D: DataProtocol>(_ package: D) throws -> Parts {
        var reader = ByteReader(package)
        func chunk(_ name: String, expected: Int?) throws -> [UInt8] {
            guard let length = try? reader.readUInt32() else {
                throw FileError.malformed("the FileLock \(name) chunk is missing")
            }
            if let expected, length != expected {
                throw FileError.malformed("the FileLock \(name) chunk is \(length) bytes, not \(expected)")
            }
            guard let bytes = try? reader.read(Int(length)) else {
                throw FileError.malformed("the FileLock \(name) chunk is truncated")
            }
            return bytes
        }
        let wrapped = try chunk("wrapped key", expected: wrappedKeyLength)
        let nonce = try chunk("nonce", expected: 12)
        let ciphertext = try chunk("ciphertext", expected: nil)
        let tag = try chunk("tag", expected: 16)
        guard reader.isAtEnd else { throw FileError.malformed("\(reader.remaining) bytes follow the FileLock tag") }
        return Parts(wrappedKey: wrapped, nonce: nonce, ciphertext: ciphertext, tag: tag)
    }
}

extension FileLockPackage {
    /// The plaintext length of a well-formed package, read without a key.
    public static func plaintextLength<D: DataProtocol>(of package: D) throws -> Int {
        try parse(package).ciphertext.count
    }
}
