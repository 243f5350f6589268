#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

extension Certificate {
    /// How `parley pgp keys list` shows the key: `sec` (the secret is held) or `pub`, the fingerprint, the
    /// primary key's algorithm, its creation day and `[revoked]`/`[expired]` at `now`; then one line per user ID.
    public func listing(secret: Bool, now: UInt32) -> [String] {
        let created = UTCTime(Date(timeIntervalSince1970: TimeInterval(primaryKey.created))).dayText
        var state = ""
        if isRevoked(at: now) { state = " [revoked]" } else if !isUsable(at: now) { state = " [expired]" }
        let head = "\(secret ? "sec" : "pub")  \(Hex.upper(fingerprint))  \(primaryKey.algorithmName)  \(created)\(state)"
        return [head] + userIDs.map { "     \($0.string)" }
    }
}

/// The pass phrase rule of `parley pgp`: a secret key it stores is protected by at least 12 bytes.
public enum PGPPassphrase {
    /// The shortest pass phrase accepted, in bytes.
    public static let minimumLength = 12

    /// Refuses a pass phrase shorter than `minimumLength`; `new` words it as the replacement of an old one.
    public static func check(_ passphrase: [UInt8], new: Bool = false) throws(PGPKeyStoreError) {
        guard passphrase.count >= minimumLength else {
            throw PGPKeyStoreError("the \(new ? "new " : "")pass phrase is shorter than \(minimumLength) characters: choose a longer one")
        }
    }
}
