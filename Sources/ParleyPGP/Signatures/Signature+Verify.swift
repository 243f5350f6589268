import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Signature verification for RSA (PKCS#1 v1.5), legacy EdDSA and ECDSA P-256.
extension Signature {
    /// The hash trailer: the hashed header, then the version, 0xFF and the header's length.
    var trailer: [UInt8] {
        var out = hashedHeader + [version, 0xFF]
        out.appendU32(UInt32(hashedHeader.count))
        return out
    }

    /// The bytes hashed for a signature over `data` (document, or key/user ID material).
    func signedBytes(_ data: [UInt8]) -> [UInt8] {
        salt + (type == .text ? Signature.canonicalText(data) : data) + trailer
    }

    /// Converts bare LF line endings to CRLF, as text-mode signatures require.
    static func canonicalText(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + data.count / 32)
        var previous: UInt8 = 0
        for byte in data {
            if byte == 0x0A && previous != 0x0D { out.append(0x0D) }
            out.append(byte)
            previous = byte
        }
        return out
    }

    /// Verifies this signature over `data` by `key`; throws `.badSignature` when it does not hold.
    public func verify(data: [UInt8], by key: PublicKey) throws {
        // One code path with streamed verification (Signature+Streaming.swift).
        var hasher = TypedHasher(hashAlgorithm)
        hasher.update(signedBytes(data))
        try verify(digest: hasher.finalize(), by: key)
    }

    /// The data a certification over `userID` on `primary` signs.
    static func certificationData(primary: PublicKey, userID: [UInt8]) -> [UInt8] {
        var out = primary.hashPrefix + [0xB4]
        out.appendU32(UInt32(userID.count))
        return out + userID
    }

    /// The data a subkey binding, back-signature or subkey revocation signs.
    static func bindingData(primary: PublicKey, subkey: PublicKey) -> [UInt8] {
        primary.hashPrefix + subkey.hashPrefix
    }
}

extension PublicKeyAlgorithm {
    var isRSA: Bool { self == .rsaEncryptSign || self == .rsaSignOnly || self == .rsaEncryptOnly }
}
