/// A v4 symmetric-key (password) encrypted session key packet (RFC 4880 §5.3).
public struct SKESK: Sendable {
    /// The cipher of the message (and of the optional encrypted session key).
    public let algorithm: SymmetricAlgorithm
    /// How the password becomes a key.
    public let s2k: S2K
    /// The encrypted session key; empty when the S2K output is the session key itself.
    let encryptedSessionKey: [UInt8]

    /// Parses a SKESK body.
    public init(packetBody: [UInt8]) throws {
        var reader = ByteReader(packetBody)
        let version = try reader.u8()
        guard version == 4 else { throw PGPError.unsupported("SKESK version \(version)") }
        algorithm = try .from(reader.u8())
        s2k = try S2K.read(from: &reader)
        encryptedSessionKey = reader.rest()
    }

    init(algorithm: SymmetricAlgorithm, s2k: S2K) {
        self.algorithm = algorithm
        self.s2k = s2k
        encryptedSessionKey = []
    }

    /// The packet body.
    var body: [UInt8] { [4, algorithm.rawValue] + s2k.encoded + encryptedSessionKey }

    /// The session key this password yields. A wrong password is only detected by the SEIPD quick check.
    func sessionKey(password: [UInt8]) throws -> SessionKey {
        try sessionKey(derived: s2k.deriveKey(passphrase: password, length: algorithm.keySize))
    }

    /// The session key from the key the S2K derived (the slow part, which a reader may remember).
    func sessionKey(derived: [UInt8]) throws -> SessionKey {
        guard !encryptedSessionKey.isEmpty else { return try SessionKey(algorithm: algorithm, key: derived) }
        let plain = try OpenPGPCFB.decrypt(encryptedSessionKey, key: derived)
        guard let first = plain.first, let cipher = try? SymmetricAlgorithm.from(first),
              plain.count == 1 + cipher.keySize else { throw PGPError.noMatchingKey }
        return try SessionKey(algorithm: cipher, key: Array(plain[1...]))
    }
}
