#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Whether a user ID is vouched for by an authority (`sop validate-userid`).
extension Certificate {
    /// Whether one of this certificate's user IDs matching `userID` carries, at `time`, a valid
    /// certification by the primary key of one of `authorities` — a self-signature counts when the
    /// authority is this certificate itself. `addrSpecOnly` compares `userID` with each user ID's
    /// e-mail address (the part in angle brackets, or the whole user ID when it is a bare address),
    /// ignoring ASCII case. This certificate must not be revoked; an authority must be usable at `time`.
    /// A certification counts when it verifies, was made no later than `time`, has not expired, and
    /// no revocation of it by the same authority, made after it and no later than `time`, verifies.
    public func hasUserID(_ userID: String, certifiedByAnyOf authorities: [Certificate], addrSpecOnly: Bool = false,
                          at time: UInt32) -> Bool {
        guard !isRevoked(at: time) else { return false }
        let usable = authorities.filter { $0.isUsable(at: time) }
        return userIDs.contains { candidate in
            guard Certificate.matches(candidate.string, userID, addrSpecOnly: addrSpecOnly) else { return false }
            let data = Signature.certificationData(primary: primaryKey, userID: candidate.value)
            return usable.contains { authority in
                let by = candidate.signatures.filter { signature in
                    guard let created = signature.creationTime, created <= time, !signature.isExpired(at: time) else { return false }
                    if let issuer = signature.issuerKeyID, issuer != authority.primaryKey.keyID { return false }
                    return (try? signature.verify(data: data, by: authority.primaryKey)) != nil
                }
                let newestRevocation = by.filter { $0.type == .certificationRevocation }.compactMap(\.creationTime).max()
                return by.contains { signature in
                    signature.type.isCertification && (newestRevocation.map { $0 < (signature.creationTime ?? 0) } ?? true)
                }
            }
        }
    }

    /// Whether a user ID matches what was asked: exactly, or by its e-mail address.
    static func matches(_ candidate: String, _ wanted: String, addrSpecOnly: Bool) -> Bool {
        guard addrSpecOnly else { return candidate == wanted }
        return addrSpec(of: candidate)?.lowercased() == wanted.lowercased()
    }

    /// The e-mail address of a user ID: the last `<…>`, or the user ID itself when it is one bare address.
    static func addrSpec(of userID: String) -> String? {
        if let open = userID.lastIndex(of: "<"), let close = userID[open...].firstIndex(of: ">") {
            let address = userID[userID.index(after: open)..<close]
            return address.contains("@") ? String(address) : nil
        }
        let bare = userID.trimmingSpaces()
        return bare.contains("@") && !bare.contains(" ") ? bare : nil
    }
}
