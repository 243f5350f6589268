import Crypto

/// Generates v4 keys: an Ed25519 (legacy EdDSA) certify+sign primary with a Cv25519 ECDH encryption
/// subkey — the shape GnuPG 2.2 makes with `future-default`.
public enum KeyGenerator {
    /// A new secret key for `userIDs`, created at `now`, protected with `passphrase` when given.
    ///
    /// Pass phrases shorter than 12 characters are refused: they would not survive an offline guess.
    public static func generate(userIDs: [String], passphrase: [UInt8]?, now: UInt32) throws -> Certificate {
        if let passphrase, passphrase.count < 12 {
            throw PGPError.unusableKey("pass phrase shorter than 12 characters")
        }
        let signing = Curve25519.Signing.PrivateKey()
        let primaryPublic = PublicKey(created: now, material: .eddsa(publicKey: Array(signing.publicKey.rawRepresentation)))
        var primarySecretMPIs: [UInt8] = []
        primarySecretMPIs.appendMPI(Array(signing.rawRepresentation))
        let primary = UnlockedKey(publicKey: primaryPublic, secret: .ed25519(signing), secretMPIs: primarySecretMPIs)

        // Clamp the scalar as RFC 7748 does, so the stored value is the one every implementation uses.
        var scalar = Array(Curve25519.KeyAgreement.PrivateKey().rawRepresentation)
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        let agreement = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        let subPublic = PublicKey(created: now, material: .ecdh(curve: .curve25519, point: Array(agreement.publicKey.rawRepresentation),
                                                                kdfHash: .sha256, kdfCipher: .aes128))
        var subSecretMPIs: [UInt8] = []
        subSecretMPIs.appendMPI(scalar.reversed())
        let sub = UnlockedKey(publicKey: subPublic, secret: .x25519(agreement), secretMPIs: subSecretMPIs)

        return try assemble(primary: primary, subkey: sub, userIDs: userIDs, passphrase: passphrase, now: now)
    }

    /// Binds `subkey` (for encryption) and each user ID to `primary`, then protects the secrets.
    /// One positive self-certification per user ID (the first marked primary), with `subpackets` hashed in each.
    static func certifiedUserIDs(
        _ userIDs: [String], primary: UnlockedKey, primaryPublic: PublicKey, subpackets: [Signature.Subpacket], now: UInt32
    ) throws -> [Certificate.UserID] {
        try userIDs.enumerated().map { index, userID in
            let value = Array(userID.utf8)
            var extra = subpackets
            if index == 0 { extra.append(.init(type: Signature.SubpacketType.primaryUserID, critical: false, data: [1])) }
            let certification = try Signature.create(type: .positiveCertification,
                                                     over: Signature.certificationData(primary: primaryPublic, userID: value),
                                                     by: primary, hash: .sha512, time: now, extraHashed: extra)
            return Certificate.UserID(value: value, signatures: [certification])
        }
    }

    static func assemble(primary: UnlockedKey, subkey sub: UnlockedKey, userIDs: [String], passphrase: [UInt8]?, now: UInt32) throws -> Certificate {
        let primaryPublic = primary.publicKey, subPublic = sub.publicKey
        let preferences: [Signature.Subpacket] = [
            .init(type: Signature.SubpacketType.keyFlags, critical: false, data: [KeyFlags([.certify, .sign]).rawValue]),
            .init(type: Signature.SubpacketType.preferredSymmetric, critical: false, data: [9, 8, 7]),
            .init(type: Signature.SubpacketType.preferredHash, critical: false, data: [10, 9, 8]),
            .init(type: Signature.SubpacketType.preferredCompression, critical: false, data: [2, 1, 0]),
            .init(type: Signature.SubpacketType.features, critical: false, data: [0x01]),
        ]
        let userIDPackets = try certifiedUserIDs(userIDs, primary: primary, primaryPublic: primaryPublic, subpackets: preferences, now: now)
        let binding = try Signature.create(type: .subkeyBinding, over: Signature.bindingData(primary: primaryPublic, subkey: subPublic),
                                           by: primary, hash: .sha512, time: now,
                                           extraHashed: [.init(type: Signature.SubpacketType.keyFlags, critical: false,
                                                               data: [KeyFlags.encrypt.rawValue])])
        let secrets = try [primary, sub].map { key in
            try passphrase.map { try protect(key, passphrase: $0) } ?? key.unprotected
        }
        return Certificate(primaryKey: primaryPublic, directSignatures: [], userIDs: userIDPackets,
                           subkeys: [.init(key: subPublic, signatures: [binding])], secretKeys: secrets)
    }

    /// Protects `key` as GnuPG does, but stronger: usage 254 (SHA-1 check), iterated+salted SHA-256, AES-256;
    /// a v6 key as RFC 9580 asks instead (`protectV6`: AEAD under Argon2; `subkey` is bound into its tag).
    static func protect(_ key: UnlockedKey, passphrase: [UInt8], subkey: Bool = false) throws -> SecretKey {
        if key.publicKey.version == 6 { return try protectV6(key, passphrase: passphrase, subkey: subkey) }
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let iv = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let s2k = S2K(hash: .sha256, kind: .iteratedSalted(salt: salt, countByte: 0xF0))
        let cipherKey = try s2k.deriveKey(passphrase: passphrase, length: SymmetricAlgorithm.aes256.keySize)
        let plain = key.secretMPIs + Array(Insecure.SHA1.hash(data: key.secretMPIs))
        let encrypted = try OpenPGPCFB.encrypt(plain, key: cipherKey, iv: iv)
        return SecretKey(publicKey: key.publicKey, protection: .encrypted(cipher: .aes256, s2k: s2k, iv: iv, sha1Check: true),
                         secretData: encrypted)
    }
}
