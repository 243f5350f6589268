/// Writes OpenPGP messages: encrypted to certificates and/or passwords, optionally signed, as
/// PKESK v3 / SKESK v4 + SEIPD v1 with MDC, or for v6 recipients PKESK v6 / SKESK v6 + SEIPD v2 (AES-256-OCB).
/// Signing without encryption is `Signer`.
public struct Encryptor: Sendable {
    /// Which packet versions a message is written with.
    public enum Profile: Sendable, Equatable {
        /// SEIPD v2 when every recipient's encryption key is a v6 key, else SEIPD v1 (password-only: v1).
        case byRecipients
        /// Always PKESK v3 / SKESK v4 + SEIPD v1 with MDC (what GnuPG 2.2 reads).
        case rfc4880
        /// Always PKESK v6 / SKESK v6 + SEIPD v2, AES-256-OCB in 64 KiB chunks.
        case rfc9580
    }

    /// The packet versions to write (default: chosen by the recipients' keys).
    public var profile: Profile = .byRecipients
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
        let (v2, sessionKey, sessionPackets) = try sessionKeyPackets()
        var inner = try Signer.signedPackets(LiteralData(format: format, filename: filename, date: now, data: data), signers: signers, now: now)
        if compress {
            inner = [Packet(.compressedData, body: try Compression.compressZlib(inner.encoded))]
        }
        let body: [UInt8]
        if v2 {
            let output = PGPMemoryOutput()
            let sink = try SEIPDv2EncryptingSink(sessionKey: sessionKey, mode: Self.aeadMode, chunkSizeOctet: Self.chunkSizeOctet,
                                                 next: OutputSink(output))
            try sink.write(inner.encoded)
            try sink.finish()
            body = output.bytes
        } else {
            body = try SEIPD.encrypt(inner.encoded, with: sessionKey)
        }
        return (sessionPackets + [Packet(.symEncryptedIntegrityProtectedData, body: body)]).encoded
    }

    /// SEIPD v2's mode: OCB, the one RFC 9580 makes mandatory.
    static let aeadMode = AEADAlgorithm.ocb
    /// SEIPD v2's chunk size octet: 2^(10+6) = 64 KiB, Parley's stream chunk.
    static let chunkSizeOctet: UInt8 = 10

    /// Whether to write SEIPD v2, a fresh session key, and a session-key packet per recipient and password.
    func sessionKeyPackets() throws -> (v2: Bool, sessionKey: SessionKey, packets: [Packet]) {
        guard !recipients.isEmpty || !passwords.isEmpty else { throw PGPError.unusableKey("no recipients or passwords") }
        let keys = try recipients.map { recipient in
            guard let key = recipient.encryptionKeys(at: now).first else {
                throw PGPError.unusableKey("certificate \(recipient.primaryKey.fingerprintHex) has no valid encryption key")
            }
            return key
        }
        let v2 = switch profile {
        case .rfc4880: false
        case .rfc9580: true
        case .byRecipients: !keys.isEmpty && keys.allSatisfy { $0.version == 6 }
        }
        let sessionKey = SessionKey.random(cipher)
        var packets = try keys.map { key in
            Packet(.publicKeyEncryptedSessionKey, body: try PKESK.encrypt(sessionKey, to: key, version: v2 ? 6 : 3).body)
        }
        // One password packet each carries the session key encrypted under the password's key.
        for password in passwords {
            let body = v2 ? try SKESK.v6(sessionKey, password: password, s2k: KeyGenerator.argon2S2K(), aead: Self.aeadMode).body
                          : try Encryptor.skesk(sessionKey, password: password)
            packets.append(Packet(.symmetricKeyEncryptedSessionKey, body: body))
        }
        return (v2, sessionKey, packets)
    }

    /// A SKESK v4 body that encrypts `sessionKey` under `password` (so several passwords and keys can share it).
    static func skesk(_ sessionKey: SessionKey, password: [UInt8]) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // 0xE0 = 16 MiB hashed, GnuPG's usual order of magnitude.
        let s2k = S2K(hash: .sha256, kind: .iteratedSalted(salt: salt, countByte: 0xE0))
        let kek = try s2k.deriveKey(passphrase: password, length: sessionKey.algorithm.keySize)
        let encrypted = try OpenPGPCFB.encrypt([sessionKey.algorithm.rawValue] + sessionKey.key, key: kek)
        return [4, sessionKey.algorithm.rawValue] + s2k.encoded + encrypted
    }
}
