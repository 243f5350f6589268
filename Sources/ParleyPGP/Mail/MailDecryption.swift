/// The keys a mail reader decrypts and verifies with. Unlocked keys come from the `DecryptedKeyCache`
/// when one is given, so a pass phrase is needed once per 120 s of use rather than once per part.
struct MailDecryption: Sendable {
    let keys: [Certificate]
    let passphrases: [[UInt8]]
    let verifiers: [Certificate]
    let now: UInt32
    let cache: DecryptedKeyCache?
    /// Unlock results for this read only.
    let memo = UnlockMemo()
    /// Largest plaintext a compressed packet may expand to: the message size limit.
    let decompressionLimit: Int

    /// Decrypts (or just reads, when only signed) an OpenPGP message, armored or binary.
    func decrypt(_ message: [UInt8]) throws -> Decryptor.Result {
        let packets = try PacketParser.parse(Armor.unwrap(message))
        // An old Symmetrically Encrypted Data packet is refused before any key is unlocked.
        guard !packets.contains(where: { $0.tag == .symmetricallyEncryptedData }) else { throw PGPError.missingMDC }
        var decryptor = Decryptor(now: now)
        decryptor.verifiers = verifiers
        decryptor.decompressionLimit = decompressionLimit
        guard packets.contains(where: { $0.tag == .publicKeyEncryptedSessionKey || $0.tag == .symmetricKeyEncryptedSessionKey }) else {
            // Signed-only, or an old no-MDC packet: the Decryptor reports those.
            return try decryptor.decrypt(message)
        }
        var failure = PGPError.noMatchingKey
        for packet in packets.prefix(Decryptor.maxSessionKeyPackets * 2) where packet.tag == .publicKeyEncryptedSessionKey {
            guard let pkesk = try? PKESK(packetBody: packet.body) else { continue }
            for certificate in keys {
                for key in certificate.allKeys where key.canEncrypt && (pkesk.keyID == key.keyID || pkesk.keyID.allSatisfy { $0 == 0 }) {
                    guard let secret = certificate.secretKey(for: key) else { continue }
                    let unlocked: UnlockedKey
                    do {
                        unlocked = try memo.unlock(secret, passphrases: passphrases, cache: cache)
                    } catch let error as PGPError {
                        // A wrong pass phrase says more than a missing one; either says more than no key.
                        if error == .wrongPassphrase || failure == .noMatchingKey { failure = error }
                        continue
                    }
                    if let sessionKey = try? pkesk.decrypt(with: unlocked) { decryptor.sessionKeys.append(sessionKey) }
                }
            }
        }
        guard !decryptor.sessionKeys.isEmpty else { throw failure }
        return try decryptor.decrypt(message)
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
