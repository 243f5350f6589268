/// Third-party certifications (`sop certify-userid`): another key's statement that a user ID belongs
/// to this certificate.
extension Certificate {
    /// This certificate (secret parts left out) with a generic certification (0x10) by `certifier`
    /// over each of `userIDs`. With `requireSelfSignature`, each user ID must already be bound by a
    /// valid self-signature (`KeyMaintenanceError.userIDNotFound` otherwise); without it, a user ID the
    /// certificate lacks is added carrying only the new certification (a "pet name").
    public func certified(userIDs wanted: [String], by certifier: UnlockedKey, requireSelfSignature: Bool = true,
                          now: UInt32) throws -> Certificate {
        let bound = Set(validUserIDs(at: now).map(\.userID))
        var userIDs = self.userIDs
        for userID in wanted {
            let value = Array(userID.utf8)
            if requireSelfSignature, !bound.contains(userID) { throw KeyMaintenanceError.userIDNotFound(userID) }
            let certification = try Signature.create(type: .genericCertification,
                                                     over: Signature.certificationData(primary: primaryKey, userID: value),
                                                     by: certifier, hash: .sha512, time: now)
            if let index = userIDs.firstIndex(where: { $0.value == value }) {
                userIDs[index] = UserID(value: value, signatures: userIDs[index].signatures + [certification])
            } else {
                userIDs.append(UserID(value: value, signatures: [certification]))
            }
        }
        return Certificate(primaryKey: primaryKey, directSignatures: directSignatures, userIDs: userIDs,
                           subkeys: subkeys, secretKeys: [])
    }
}
