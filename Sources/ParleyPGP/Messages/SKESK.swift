import Crypto

/// A symmetric-key (password) encrypted session key packet: version 4 (RFC 4880 §5.3, CFB) or version 6
/// (RFC 9580 §5.3.2, AEAD under an HKDF-derived key).
public struct SKESK: Sendable {
    /// 4 or 6.
    public let version: UInt8
    /// The cipher of the message (v4) or of the encrypted session key (v6).
    public let algorithm: SymmetricAlgorithm
    /// How the password becomes a key.
    public let s2k: S2K
    /// v6 only: the AEAD mode protecting the session key, and its nonce.
    public let aead: AEADAlgorithm?
    let nonce: [UInt8]
    /// The encrypted session key (v6: with its tag); empty when the S2K output is the session key itself (v4).
    let encryptedSessionKey: [UInt8]

    /// Parses a SKESK body.
    public init(packetBody: [UInt8]) throws {
        var reader = PacketReader(packetBody)
        version = try reader.u8()
        switch version {
        case 4:
            algorithm = try .from(reader.u8())
            s2k = try S2K.read(from: &reader)
            aead = nil
            nonce = []
            encryptedSessionKey = reader.rest()
        case 6:
            // A count of the fields up to the end of the nonce, then cipher, AEAD mode, S2K length and S2K, nonce.
            var fields = PacketReader(try reader.take(Int(reader.u8())))
            algorithm = try .from(fields.u8())
            let aead = try AEADAlgorithm.from(fields.u8())
            var s2kReader = PacketReader(try fields.take(Int(fields.u8())))
            s2k = try S2K.read(from: &s2kReader)
            guard s2kReader.isAtEnd else { throw PGPError.malformed("S2K length in a v6 SKESK") }
            nonce = try fields.take(aead.nonceSize)
            guard fields.isAtEnd else { throw PGPError.malformed("field count in a v6 SKESK") }
            self.aead = aead
            encryptedSessionKey = reader.rest()
            guard encryptedSessionKey.count > AEADAlgorithm.tagSize else { throw PGPError.malformed("v6 SKESK without its session key") }
        default:
            throw PGPError.unsupported("SKESK version \(version)")
        }
    }

    init(algorithm: SymmetricAlgorithm, s2k: S2K) {
        version = 4
        self.algorithm = algorithm
        self.s2k = s2k
        aead = nil
        nonce = []
        encryptedSessionKey = []
    }

    private init(version: UInt8, algorithm: SymmetricAlgorithm, s2k: S2K, aead: AEADAlgorithm?, nonce: [UInt8], encrypted: [UInt8]) {
        self.version = version
        self.algorithm = algorithm
        self.s2k = s2k
        self.aead = aead
        self.nonce = nonce
        encryptedSessionKey = encrypted
    }

    /// The packet body.
    var body: [UInt8] {
        guard version == 6, let aead else { return [4, algorithm.rawValue] + s2k.encoded + encryptedSessionKey }
        let s2kBytes = s2k.encoded
        let fields = [algorithm.rawValue, aead.rawValue, UInt8(s2kBytes.count)] + s2kBytes + nonce
        return [6, UInt8(fields.count)] + fields + encryptedSessionKey
    }

    /// The session key this password yields. A wrong v4 password is only detected by the SEIPD quick check.
    func sessionKey(password: [UInt8], dataCipher: SymmetricAlgorithm? = nil) throws -> SessionKey {
        try sessionKey(derived: s2k.deriveKey(passphrase: password, length: algorithm.keySize), dataCipher: dataCipher)
    }

    /// The session key from the key the S2K derived (the slow part, which a reader may remember). A v6 session
    /// key carries no cipher of its own: it is `dataCipher`'s, the SEIPD v2 header's.
    func sessionKey(derived: [UInt8], dataCipher: SymmetricAlgorithm? = nil) throws -> SessionKey {
        if version == 6, let aead {
            guard let dataCipher else { throw PGPError.malformed("a v6 SKESK before data that is not SEIPD v2") }
            let info = [0xC3, 6, algorithm.rawValue, aead.rawValue]
            let kek = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: derived), info: info,
                                             outputByteCount: algorithm.keySize).withUnsafeBytes { Array($0) }
            let plain: [UInt8]
            do {
                plain = try aead.open(encryptedSessionKey, key: kek, nonce: nonce, associatedData: info)
            } catch {
                throw PGPError.noMatchingKey  // the tag is the password check
            }
            return try SessionKey(algorithm: dataCipher, key: plain)
        }
        guard !encryptedSessionKey.isEmpty else { return try SessionKey(algorithm: algorithm, key: derived) }
        let plain = try OpenPGPCFB.decrypt(encryptedSessionKey, key: derived)
        guard let first = plain.first, let cipher = try? SymmetricAlgorithm.from(first),
              plain.count == 1 + cipher.keySize else { throw PGPError.noMatchingKey }
        return try SessionKey(algorithm: cipher, key: Array(plain[1...]))
    }

    /// A v6 SKESK (RFC 9580 §5.3.2) carrying `sessionKey` under `password` with `s2k`, the key encrypted
    /// with AES-256 in `aead`.
    static func v6(_ sessionKey: SessionKey, password: [UInt8], s2k: S2K, aead: AEADAlgorithm) throws -> SKESK {
        let cipher = SymmetricAlgorithm.aes256
        let derived = try s2k.deriveKey(passphrase: password, length: cipher.keySize)
        let info = [0xC3, 6, cipher.rawValue, aead.rawValue]
        let kek = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: derived), info: info,
                                         outputByteCount: cipher.keySize).withUnsafeBytes { Array($0) }
        let nonce = randomBytes(aead.nonceSize)
        let sealed = try aead.seal(sessionKey.key, key: kek, nonce: nonce, associatedData: info)
        return SKESK(version: 6, algorithm: cipher, s2k: s2k, aead: aead, nonce: nonce, encrypted: sealed)
    }
}

/// `count` bytes from the system's secure generator.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}
