/// Merging copies of one certificate (`sop merge-certs`, `sop update-key --merge-certs`): the union of
/// their user IDs, subkeys and signatures, each signature once.
extension Certificate {
    /// This certificate with every direct signature, user ID, subkey and signature of `other` that it
    /// lacks, in the order first seen. `other` must have the same primary key; its secret parts are
    /// taken only for keys this copy holds no secret for. Signatures are not checked here: a bad
    /// one is kept but never counts, since validation checks every signature.
    public func merged(with other: Certificate) throws -> Certificate {
        guard other.primaryKey == primaryKey else {
            throw PGPError.malformed("cannot merge certificates with different primary keys")
        }
        var userIDs = self.userIDs
        for userID in other.userIDs {
            if let index = userIDs.firstIndex(where: { $0.value == userID.value }) {
                userIDs[index] = UserID(value: userID.value, signatures: Certificate.union(userIDs[index].signatures, userID.signatures))
            } else {
                userIDs.append(UserID(value: userID.value, signatures: Certificate.union([], userID.signatures)))
            }
        }
        var subkeys = self.subkeys
        for subkey in other.subkeys {
            if let index = subkeys.firstIndex(where: { $0.key == subkey.key }) {
                subkeys[index] = Subkey(key: subkey.key, signatures: Certificate.union(subkeys[index].signatures, subkey.signatures))
            } else {
                subkeys.append(Subkey(key: subkey.key, signatures: Certificate.union([], subkey.signatures)))
            }
        }
        let secrets = secretKeys + other.secretKeys.filter { secret in !secretKeys.contains { $0.publicKey == secret.publicKey } }
        return Certificate(primaryKey: primaryKey, directSignatures: Certificate.union(directSignatures, other.directSignatures),
                           userIDs: userIDs, subkeys: subkeys, secretKeys: secrets)
    }

    /// Each certificate of `base` merged with every certificate of `updates` that has its primary key;
    /// updates for other keys are left out, as `sop merge-certs` asks. Copies of one key within `base`
    /// become one.
    public static func merge(_ base: [Certificate], with updates: [Certificate]) throws -> [Certificate] {
        var merged: [Certificate] = []
        for certificate in base {
            if let index = merged.firstIndex(where: { $0.primaryKey == certificate.primaryKey }) {
                merged[index] = try merged[index].merged(with: certificate)
            } else {
                merged.append(certificate)
            }
        }
        return try merged.map { certificate in
            try updates.filter { $0.primaryKey == certificate.primaryKey }.reduce(certificate) { try $0.merged(with: $1) }
        }
    }

    /// `first` followed by the signatures of `second` it lacks. Two signatures are the same when their
    /// signed parts are: the unhashed area (an issuer hint some tools add or drop) does not count.
    static func union(_ first: [Signature], _ second: [Signature]) -> [Signature] {
        var result: [Signature] = []
        for signature in first + second where !result.contains(where: { $0.isSameSignature(as: signature) }) {
            result.append(signature)
        }
        return result
    }
}

extension Signature {
    /// Whether both are the same signature, whatever their unhashed subpackets.
    func isSameSignature(as other: Signature) -> Bool {
        hashedHeader == other.hashedHeader && digestPrefix == other.digestPrefix && mpis == other.mpis
    }
}
