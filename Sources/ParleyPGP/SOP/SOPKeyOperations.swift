import ParleyCrypto

/// SOP's operations on keys and certificates, values in and values out: generate-key, extract-cert and the
/// key-maintenance subcommands. Failures are `SOPFailure`s of the draft's kinds.
public enum SOPKeyOperations {
    /// `generate-key`: a secret key of the named profile (`default`, `rfc4880` or `rfc9580`).
    public static func generateKey(profile name: String, userIDs: [String], passphrase: [UInt8]?, now: UInt32) throws -> Certificate {
        let chosen = try SOPProfiles.profile(name, for: "generate-key")
        return try SOPFailure.mapping(SOPFailure.badData) {
            switch chosen.name {
            case "rfc4880": try KeyGenerator.generateRSA(userIDs: userIDs, bits: .bits3072, passphrase: passphrase, now: now)
            case "rfc9580": try KeyGenerator.generateV6(userIDs: userIDs, passphrase: passphrase, now: now)
            default: try KeyGenerator.generate(userIDs: userIDs, passphrase: passphrase, now: now)
            }
        }
    }

    /// `extract-cert`: the certificates of the keys in `bytes`, as packets.
    public static func extractCertificates(_ bytes: [UInt8]) throws -> [UInt8] {
        try SOPFailure.mapping {
            let keys = try Certificate.readAll(bytes)
            guard !keys.isEmpty else { throw SOPFailure(.badData, "no key on standard input") }
            return keys.flatMap { $0.publicCertificate.packets.encoded }
        }
    }

    /// `change-key-password`: every secret part unlocked with one of `old`, then locked with `new` (none: unprotected).
    public static func changePassword(_ keys: [Certificate], old: [[UInt8]], new: [UInt8]?) throws -> [Certificate] {
        try SOPFailure.maintaining {
            try keys.map { key in
                try new.map { try key.reprotected(oldPassphrases: old, newPassphrase: $0) } ?? key.unprotected(oldPassphrases: old)
            }
        }
    }

    /// `revoke-key`: a revocation certificate for each key.
    public static func revoke(_ keys: [Certificate], passphrases: [[UInt8]], now: UInt32) throws -> [Certificate] {
        try SOPFailure.maintaining {
            try keys.map { try $0.revoked(by: $0.unlockedPrimaryKey(passphrases: passphrases), now: now) }
        }
    }

    /// `update-key`: `updates` merged in and due self-signatures renewed; a revoked key is 103.
    public static func update(_ keys: [Certificate], merging updates: [Certificate], passphrases: [[UInt8]], now: UInt32) throws -> [Certificate] {
        try SOPFailure.maintaining {
            try Certificate.merge(keys, with: updates.map(\.publicCertificate)).map { key in
                guard !key.isRevoked(at: now) else { throw SOPFailure(.primaryKeyBad, "\(Hex.upper(key.fingerprint)) is revoked") }
                return try key.refreshed(by: key.unlockedPrimaryKey(passphrases: passphrases), now: now)
            }
        }
    }

    /// `merge-certs`: `base` with what `updates` add to them.
    public static func merge(_ base: [Certificate], with updates: [Certificate]) throws -> [Certificate] {
        try SOPFailure.maintaining { try Certificate.merge(base, with: updates.map(\.publicCertificate)) }
    }

    /// `certify-userid`: each certificate with `userIDs` certified by every certifier.
    public static func certify(_ certificates: [Certificate], userIDs: [String], by certifiers: [Certificate], passphrases: [[UInt8]],
                               requireSelfSignature: Bool, now: UInt32) throws -> [Certificate] {
        try SOPFailure.maintaining {
            let unlocked = try certifiers.map { try $0.unlockedCertifyingKey(passphrases: passphrases, now: now) }
            return try certificates.map { certificate in
                try unlocked.reduce(certificate) { try $0.certified(userIDs: userIDs, by: $1, requireSelfSignature: requireSelfSignature, now: now) }
            }
        }
    }

    /// `validate-userid`: returns when every subject has `userID` certified by one of the authorities at `time`; else 107.
    public static func validateUserID(_ userID: String, subjects: [Certificate], authorities: [Certificate], addrSpecOnly: Bool, at time: UInt32) throws {
        let authorities = authorities.map(\.publicCertificate)
        for subject in subjects where !subject.hasUserID(userID, certifiedByAnyOf: authorities, addrSpecOnly: addrSpecOnly, at: time) {
            throw SOPFailure(.certUserIDNoMatch, "\(Hex.upper(subject.fingerprint)): no authority certified \"\(userID)\"")
        }
    }
}
