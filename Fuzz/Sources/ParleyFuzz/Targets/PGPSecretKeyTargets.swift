import ParleyPGP

extension FuzzTarget {
    static let pgpSecretKeyTargets: [FuzzTarget] = [
        FuzzTarget("pgp-secret-key", "secret keys (armored or binary, v4 and v6) read or fail cleanly and re-encode stably; a key locked with a SHA-1 check or AEAD (RFC 9580) never unlocks with the pass phrase `fuzz`; cleartext keys unlock or fail cleanly", run: pgpSecretKey),
    ]
}

/// Iterated S2K counts above this many hashed bytes are not unlocked here: the largest legal count (65 MB,
/// GnuPG's usual one) takes a tenth of a second, and would only measure SHA-256. Parsing still sees them.
private let largestS2KCount = 1 << 20
/// A keyring may hold many keys; a few per input keep each input fast.
private let keysTried = 8

private func pgpSecretKey(_ bytes: [UInt8]) {
    guard let binary = try? Armor.unwrap(bytes) else { return }
    requireStable(binary, "secret certificates", decode: { try Certificate.readAll($0) }, encode: { $0.flatMap(\.packets).encoded })
    guard let packets = try? PacketParser.parse(binary) else { return }
    // Each key packet alone, so a key that breaks certificate rules (no user ID) still reaches unlocking.
    let keys = packets.filter { $0.tag == .secretKey || $0.tag == .secretSubkey }.compactMap { try? SecretKey(packetBody: $0.body) }
    for key in keys.prefix(keysTried) {
        switch key.protection {
        case .none:
            _ = try? key.unlock(passphrase: nil)
        case .encrypted(_, let s2k, _, let sha1Check):
            if case .iteratedSalted(_, let countByte) = s2k.kind, s2kCount(countByte) > largestS2KCount { continue }
            if tooCostly(s2k) { continue }
            require((try? key.unlock(passphrase: nil)) == nil, "a locked key unlocked without a pass phrase")
            let unlocked = try? key.unlock(passphrase: Array(Fixtures.password.utf8))
            // Usage 255's two-byte checksum passes for one random key in 65,536: only usage 254 is a property.
            require(!sha1Check || unlocked == nil, "a key locked with a SHA-1 check unlocked with a pass phrase the fuzzer does not know")
        case .aead(_, _, let s2k, _):
            if case .iteratedSalted(_, let countByte) = s2k.kind, s2kCount(countByte) > largestS2KCount { continue }
            if tooCostly(s2k) { continue }
            require((try? key.unlock(passphrase: nil)) == nil, "a locked key unlocked without a pass phrase")
            // The AEAD tag is the check: a 16-byte tag passes for a wrong pass phrase once in 2^128.
            require((try? key.unlock(passphrase: Array(Fixtures.password.utf8))) == nil, "an AEAD-locked key unlocked with a pass phrase the fuzzer does not know")
        }
    }
}

/// Argon2 above 1 MiB is parsed but not run here: the largest Parley allows (2 GiB) would take seconds per input.
private func tooCostly(_ s2k: S2K) -> Bool {
    if case .argon2(_, let passes, _, let memory) = s2k.kind { return memory > 10 || passes > 2 }
    return false
}

/// RFC 4880 §3.7.1.3: the number of bytes an iterated S2K hashes.
private func s2kCount(_ countByte: UInt8) -> Int {
    (16 + Int(countByte & 15)) << (Int(countByte >> 4) + 6)
}
