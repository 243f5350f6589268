import ParleyPGP

extension FuzzTarget {
    static let pgpTargets: [FuzzTarget] = [
        FuzzTarget("pgp-armor", "armor decodes or fails cleanly; what decodes, armored again, decodes to the same kind and bytes; cleartext-signed text reads or fails cleanly", run: pgpArmor),
        FuzzTarget("pgp-packets", "packet streams parse or fail cleanly and their re-encoding is stable; keys, literal data, PKESK and SKESK bodies read or fail cleanly", run: pgpPackets),
        FuzzTarget("pgp-message", "no message decrypts with the fixture password (strict mode: encrypted with an MDC, nothing after it)", run: pgpMessage),
        FuzzTarget("pgp-mail", "any .eml reads into blocks or fails with a MailError, within the default limits", run: pgpMail),
    ]
}

/// 2026-11-25, so signature times are judged against a fixed clock.
private let now: UInt32 = 1_795_564_800

private func pgpArmor(_ bytes: [UInt8]) {
    guard let text = bytes.utf8Text else {
        _ = try? Armor.unwrap(bytes)
        return
    }
    if let (kind, data) = try? Armor.decode(text) {
        let again = try? Armor.decode(Armor.encode(data, as: kind))
        require(again?.kind == kind && again?.data == data, "armored again, a block decodes to another kind or other bytes")
    }
    _ = try? Armor.unwrap(bytes, alone: true)
    _ = try? CleartextSignature.read(text)
}

private func pgpPackets(_ bytes: [UInt8]) {
    requireStable(bytes, "PacketParser", decode: { try PacketParser.parse($0) }, encode: { $0.encoded })
    guard let packets = try? PacketParser.parse(bytes) else { return }
    _ = try? Certificate.readAll(packets)
    for packet in packets {
        _ = try? LiteralData(packetBody: packet.body)
        _ = try? PKESK(packetBody: packet.body)
        _ = try? SKESK(packetBody: packet.body)
    }
}

private func pgpMessage(_ bytes: [UInt8]) {
    var decryptor = Decryptor(now: now)
    decryptor.passwords = [Array(Fixtures.password.utf8)]
    // Argon2 (RFC 9580) may ask for up to 2 GiB per password packet within the default budget: a small budget keeps
    // each input fast (at most 64 MiB of Argon2, or 4 MB of iterated hashing) and still reaches the refusal.
    decryptor.passwordWorkLimit = 1 << 22
    require((try? decryptor.decrypt(bytes)) == nil, "a message decrypted with a password the fuzzer does not know")
}

private func pgpMail(_ bytes: [UInt8]) {
    _ = try? MailReader.read(eml: bytes, keys: [], passphrases: [], passwords: [Array(Fixtures.password.utf8)], verifyWith: [], now: now)
}
