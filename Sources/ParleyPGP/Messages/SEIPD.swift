import Crypto
import ParleyCrypto

/// Symmetrically encrypted integrity-protected data v1 (RFC 4880 §5.13): AES-CFB over
/// random prefix || packets || MDC, where MDC = 0xD3 0x14 || SHA-1(everything before its hash).
enum SEIPD {
    /// Decrypts and authenticates. Returns the inner packet bytes only once the MDC has matched.
    ///
    /// - `.noMatchingKey`: the prefix quick check failed (wrong session key or password).
    /// - `.truncated`: too short to hold prefix and MDC.
    /// - `.badMDC`: the MDC is absent from the end or does not match (altered or cut).
    static func decrypt(_ body: [UInt8], with sessionKey: SessionKey) throws -> [UInt8] {
        guard let version = body.first else { throw PGPError.truncated }
        guard version == 1 else { throw PGPError.unsupported("SEIPD version \(version)") }
        let blockSize = sessionKey.algorithm.blockSize
        let ciphertext = Array(body[1...])
        guard ciphertext.count >= blockSize + 2 + 22 else { throw PGPError.truncated }
        let plain = try OpenPGPCFB.decrypt(ciphertext, key: sessionKey.key)
        guard plain[blockSize - 2] == plain[blockSize], plain[blockSize - 1] == plain[blockSize + 1] else {
            throw PGPError.noMatchingKey
        }
        let mdcStart = plain.count - 22
        let expected = [0xD3, 0x14] + Array(Insecure.SHA1.hash(data: plain[0..<(mdcStart + 2)]))
        guard ConstantTime.equals(Array(plain[mdcStart...]), expected) else { throw PGPError.badMDC }
        return Array(plain[(blockSize + 2)..<mdcStart])
    }

    /// Encrypts inner packet bytes under `sessionKey` with a fresh random prefix.
    static func encrypt(_ packets: [UInt8], with sessionKey: SessionKey) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let blockSize = sessionKey.algorithm.blockSize
        var prefix = (0..<blockSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        prefix += prefix.suffix(2)
        var plain = prefix + packets + [0xD3, 0x14]
        plain += Insecure.SHA1.hash(data: plain)
        return [1] + (try OpenPGPCFB.encrypt(plain, key: sessionKey.key))
    }
}
