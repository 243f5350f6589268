import Crypto

/// RFC 9580 keys: a v6 Ed25519 (or Ed448) certify+sign primary with a v6 X25519 (or X448) encryption subkey,
/// self-signed with salted v6 SHA-512 signatures and locked with Argon2 and AES-256-OCB (docs/PGP.md, "RFC 9580").
extension KeyGenerator {
    /// Argon2id as Parley locks v6 keys and v6 password packets: RFC 9580's 64 MiB choice (t=3, p=4, m=16).
    static func argon2S2K() -> S2K {
        S2K(hash: .sha256, kind: .argon2(salt: randomBytes(16), passes: 3, parallelism: 4, memoryExponent: 16))
    }

    /// A new v6 secret key of `curve` for `userIDs`, created at `now`, locked with `passphrase` when given (12+
    /// characters).
    public static func generateV6(userIDs: [String], passphrase: [UInt8]?, now: UInt32, curve: V6Curve = .cv25519) throws -> Certificate {
        if let passphrase, passphrase.count < 12 {
            throw PGPError.unusableKey("pass phrase shorter than 12 characters")
        }
        let (primary, sub) = try v6Pair(curve, now: now)
        let primaryPublic = primary.publicKey, subPublic = sub.publicKey

        // RFC 9580 puts a v6 key's preferences in a direct-key signature; the user ID certifications repeat the
        // flags, which is where v4 readers (and Parley's validity rules) look first.
        let preferences: [Signature.Subpacket] = [
            .init(type: Signature.SubpacketType.keyFlags, critical: true, data: [KeyFlags([.certify, .sign]).rawValue]),
            .init(type: Signature.SubpacketType.preferredSymmetric, critical: false, data: [9, 7]),
            .init(type: Signature.SubpacketType.preferredAEAD, critical: false, data: [9, 2, 7, 2]),
            .init(type: Signature.SubpacketType.preferredHash, critical: false, data: [10, 8]),
            .init(type: Signature.SubpacketType.preferredCompression, critical: false, data: [0]),
            .init(type: Signature.SubpacketType.features, critical: false, data: [0x09]),
        ]
        let direct = try Signature.create(type: .directKey, over: primaryPublic.hashPrefix, by: primary, hash: .sha512, time: now,
                                          extraHashed: preferences)
        let userIDPackets = try certifiedUserIDs(userIDs, primary: primary, primaryPublic: primaryPublic, subpackets: [preferences[0]], now: now)
        let binding = try Signature.create(type: .subkeyBinding, over: Signature.bindingData(primary: primaryPublic, subkey: subPublic),
                                           by: primary, hash: .sha512, time: now,
                                           extraHashed: [.init(type: Signature.SubpacketType.keyFlags, critical: true,
                                                               data: [KeyFlags.encrypt.rawValue])])
        let secrets = try [(primary, false), (sub, true)].map { key, subkey in
            try passphrase.map { try protect(key, passphrase: $0, subkey: subkey) } ?? key.unprotected
        }
        return Certificate(primaryKey: primaryPublic, directSignatures: [direct], userIDs: userIDPackets,
                           subkeys: [.init(key: subPublic, signatures: [binding])], secretKeys: secrets)
    }

    /// Locks a v6 key as RFC 9580 asks (usage 253): AES-256-OCB under HKDF of an Argon2 key.
    static func protectV6(_ key: UnlockedKey, passphrase: [UInt8], subkey: Bool) throws -> SecretKey {
        let s2k = argon2S2K()
        let mode = AEADAlgorithm.ocb
        let nonce = randomBytes(mode.nonceSize)
        let shell = SecretKey(publicKey: key.publicKey, protection: .aead(cipher: .aes256, mode: mode, s2k: s2k, nonce: nonce),
                              secretData: [], isSubkey: subkey)
        let (kek, associated) = try shell.aeadKey(cipher: .aes256, mode: mode,
                                                  derived: s2k.deriveKey(passphrase: passphrase, length: SymmetricAlgorithm.aes256.keySize))
        let sealed = try mode.seal(key.secretMPIs, key: kek, nonce: nonce, associatedData: associated)
        return SecretKey(publicKey: key.publicKey, protection: shell.protection, secretData: sealed, isSubkey: subkey)
    }
}
