#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// How `parley pgp` reports signatures: one line per signature, naming a good signer by its first user ID and
/// saying what to do about one that could not be checked.
public enum VerificationReport {
    /// The line for `verification`, the signer looked up in `certificates`.
    public static func line(_ verification: Verification, certificates: [Certificate]) -> String {
        let signer = verification.certificateFingerprint.flatMap { fingerprint in
            certificates.first { $0.fingerprint == fingerprint }
        }
        if verification.isGood, let signer {
            let name = signer.userIDs.first?.string ?? Hex.upper(signer.fingerprint)
            let date = Date(timeIntervalSince1970: TimeInterval(verification.signature.creationTime ?? 0))
            return "Good signature from \(name) (\(Hex.upper(signer.fingerprint))), made \(UTCTime(date).iso8601)"
        }
        let keyID = verification.signature.issuerKeyID.map { Hex.upper($0) } ?? "unknown key"
        let why = verification.failure.map { "\($0)" } ?? "not checked"
        return "BAD or unverifiable signature by \(keyID): \(why) — import the signer's certificate with `parley pgp keys import` if it is missing"
    }
}

extension PublicKey {
    /// A short name of the key's algorithm for listings (`ed25519`, `rsa3072`, `cv25519`, …).
    public var algorithmName: String {
        switch material {
        case .rsa(let n, _): "rsa\(n.drop(while: { $0 == 0 }).count * 8)"
        case .eddsa, .ed25519: "ed25519"
        case .x25519: "x25519"
        case .ed448: "ed448"
        case .x448: "x448"
        case .ecdsa: "nistp256"
        case .ecdh(let curve, _, _, _): curve == .curve25519 ? "cv25519" : "nistp256"
        }
    }
}
