/// The keys a mail reader decrypts and verifies with. Unlocked keys come from the `DecryptedKeyCache`
/// when one is given, so a pass phrase is needed once per 120 s of use rather than once per part.
struct MailDecryption: Sendable {
    let keys: [Certificate]
    let passphrases: [[UInt8]]
    /// Passwords for messages encrypted to a password (SKESK); never stored.
    var passwords: [[UInt8]] = []
    let verifiers: [Certificate]
    let now: UInt32
    let cache: DecryptedKeyCache?
    /// Unlock results for this read only.
    let memo = UnlockMemo()
    /// Largest plaintext a compressed packet may expand to: the message size limit.
    let decompressionLimit: Int

    /// Decrypts (or just reads, when only signed) an OpenPGP message, armored or binary, with the keys
    /// or the passwords. Throws `PGPError`, or `MailError.needsPassword` / `.wrongPassword` when only a
    /// password could open the message.
    func decrypt(_ message: [UInt8]) throws -> Decryptor.Result {
        let packets = try PacketParser.parse(Armor.unwrap(message))
        // An old Symmetrically Encrypted Data packet is refused before any key is unlocked.
        guard !packets.contains(where: { $0.tag == .symmetricallyEncryptedData }) else { throw PGPError.missingMDC }
        var decryptor = Decryptor(now: now)
        decryptor.strict = false
        decryptor.verifiers = verifiers
        decryptor.decompressionLimit = decompressionLimit
        let skesks = packets.filter { $0.tag == .symmetricKeyEncryptedSessionKey }
        guard skesks.count + packets.count(where: { $0.tag == .publicKeyEncryptedSessionKey }) > 0 else {
            // Signed-only, or an old no-MDC packet: the Decryptor reports those.
            return try decryptor.decrypt(message)
        }
        let keyFailure = sessionKeys(packets, into: &decryptor)
        if !skesks.isEmpty {
            // A password packet Parley cannot read (an unknown S2K or cipher) says why, rather than "wrong password".
            if decryptor.sessionKeys.isEmpty, let first = skesks.first, !skesks.contains(where: { (try? SKESK(packetBody: $0.body)) != nil }) {
                _ = try SKESK(packetBody: first.body)
            }
            decryptor.passwords = passwords
        }
        do {
            guard !decryptor.sessionKeys.isEmpty || !decryptor.passwords.isEmpty else { throw keyFailure }
            return try decryptor.decrypt(message)
        } catch let error as PGPError where error == keyFailure || error == .noMatchingKey {
            guard !skesks.isEmpty else { throw error }
            // A password the reader gave that opens nothing is wrong; with none given, a message that no
            // key could open (but a password could) needs one. A locked matching key says more than that.
            if !passwords.isEmpty { throw MailError.wrongPassword }
            throw keyFailure == .noMatchingKey ? MailError.needsPassword : keyFailure
        }
    }

    /// Session keys from the public-key packets that a given secret key opens, added to `decryptor`;
    /// returns the most telling failure: a wrong pass phrase, else a missing one, else a cipher Parley lacks, else
    /// no matching key.
    private func sessionKeys(_ packets: [Packet], into decryptor: inout Decryptor) -> PGPError {
        var failure = PGPError.noMatchingKey
        for packet in packets.prefix(Decryptor.maxSessionKeyPackets * 2) where packet.tag == .publicKeyEncryptedSessionKey {
            guard let pkesk = try? PKESK(packetBody: packet.body) else { continue }
            for certificate in keys {
                for key in certificate.allKeys where key.canEncrypt && (pkesk.keyID == key.keyID || pkesk.keyID.allSatisfy { $0 == 0 }) {
                    guard let secret = certificate.secretKey(for: key) else { continue }
                    let unlocked: UnlockedKey
                    do {
                        unlocked = try memo.unlock(secret, passphrases: passphrases, cache: cache)
                    } catch {
                        // A wrong pass phrase says more than a missing one; either says more than no key.
                        let error = error as? PGPError ?? .noMatchingKey
                        if error == .wrongPassphrase || failure == .noMatchingKey { failure = error }
                        continue
                    }
                    do {
                        decryptor.sessionKeys.append(try pkesk.decrypt(with: unlocked))
                    } catch let error as PGPError {
                        // The key opened the packet, but it names a cipher Parley lacks: say so, not "no key".
                        if case .unsupported = error, failure == .noMatchingKey { failure = error }
                    } catch {}
                }
            }
        }
        return failure
    }

    /// Whether `bytes` hold an OpenPGP message to decrypt: armored MESSAGE, or binary data whose first
    /// packet is a session key, encrypted data or compressed/literal data.
    static func looksEncrypted(_ bytes: [UInt8]) -> Bool {
        if Armor.isArmored(bytes) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return false }
            return (try? Armor.decode(text).kind) == .message
        }
        guard let first = bytes.first, first & 0x80 != 0 else { return false }
        let tag = first & 0x40 != 0 ? first & 0x3F : (first >> 2) & 0x0F
        return [1, 3, 8, 9, 18].contains(tag)
    }
}
