/// Writes OpenPGP messages: encrypted to certificates and/or passwords, optionally signed, as
/// PKESK v3 / SKESK v4 + SEIPD v1 with MDC. Signing without encryption is `Signer`.
public struct Encryptor: Sendable {
    /// Recipients; each gets a PKESK for its newest valid encryption key.
    public var recipients: [Certificate] = []
    /// Passwords; each gets a SKESK (iterated+salted SHA-256).
    public var passwords: [[UInt8]] = []
    /// Keys to sign with, before encrypting.
    public var signers: [UnlockedKey] = []
    /// "Now", seconds since 1970.
    public var now: UInt32
    /// The session cipher.
    public var cipher: SymmetricAlgorithm = .aes256
    /// Whether to ZLIB-compress the signed literal data inside the encryption.
    public var compress = false
    /// Literal data format: 'b' binary or 'u' UTF-8 text.
    public var format: UInt8 = 0x62

    /// An encryptor at time `now`.
    public init(now: UInt32) {
        self.now = now
    }

    /// Encrypts `data`; returns binary packets (armor with `Armor.encode(_, as: .message)`).
    public func encrypt(_ data: [UInt8], filename: [UInt8] = []) throws -> [UInt8] {
        guard !recipients.isEmpty || !passwords.isEmpty else { throw PGPError.unusableKey("no recipients or passwords") }
        let sessionKey = SessionKey.random(cipher)
        var packets: [Packet] = []
        for recipient in recipients {
            guard let key = recipient.encryptionKeys(at: now).first else {
                throw PGPError.unusableKey("certificate \(recipient.primaryKey.fingerprintHex) has no valid encryption key")
            }
            packets.append(Packet(.publicKeyEncryptedSessionKey, body: try PKESK.encrypt(sessionKey, to: key).body))
        }
        if !passwords.isEmpty {
            // One password SKESK carries the session key encrypted under the S2K key.
            for password in passwords {
                packets.append(Packet(.symmetricKeyEncryptedSessionKey, body: try Encryptor.skesk(sessionKey, password: password)))
            }
        }
        var inner = try Signer.signedPackets(LiteralData(format: format, filename: filename, date: now, data: data), signers: signers, now: now)
        if compress {
            inner = [Packet(.compressedData, body: try Compression.compressZlib(inner.encoded))]
        }
        packets.append(Packet(.symEncryptedIntegrityProtectedData, body: try SEIPD.encrypt(inner.encoded, with: sessionKey)))
        return packets.encoded
    }

    /// A SKESK v4 body that encrypts `sessionKey` under `password` (so several passwords and keys can share it).
    static func skesk(_ sessionKey: SessionKey, password: [UInt8]) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // 0xE0 = 16 MiB hashed, GnuPG's usual order of magnitude.
        let s2k = S2K(hash: .sha256, kind: .iteratedSalted(salt: salt, countByte: 0xE0))
        let kek = s2k.deriveKey(passphrase: password, length: sessionKey.algorithm.keySize)
        let encrypted = try OpenPGPCFB.encrypt([sessionKey.algorithm.rawValue] + sessionKey.key, key: kek)
        return [4, sessionKey.algorithm.rawValue] + s2k.encoded + encrypted
    }
}
