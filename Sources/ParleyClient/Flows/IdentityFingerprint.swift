import Crypto
import Foundation
import ParleyCrypto

/// A short, readable digest of an identity key, to compare out of band (safety numbers come with `verification`).
public enum IdentityFingerprint {
    /// The first 16 bytes of the key's SHA-256 in hex, in groups of four: `1a2b 3c4d …` (eight groups).
    public static func short(_ key: [UInt8]) -> String {
        let hex = Hex.lower(SHA256.hash(data: key).prefix(16))
        return stride(from: 0, to: hex.count, by: 4).map { i in
            String(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 4)])
        }.joined(separator: " ")
    }
}
