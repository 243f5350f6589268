import Crypto
import _CryptoExtras
import Foundation

/// Making v4 signatures with an unlocked key.
extension Signature {
    /// Signs `data` (document or key material) as `type` with `key`, hashing with `hash`.
    ///
    /// Adds creation time and issuer fingerprint (hashed) and issuer key ID (unhashed).
    static func create(type: SignatureType, over data: [UInt8], by key: UnlockedKey, hash: HashAlgorithm = .sha256,
                       time: UInt32, extraHashed: [Subpacket] = []) throws -> Signature {
        var created: [UInt8] = []
        created.appendU32(time)
        let hashed = [
            Subpacket(type: SubpacketType.creationTime, critical: false, data: created),
            Subpacket(type: SubpacketType.issuerFingerprint, critical: false, data: [4] + key.publicKey.fingerprint),
        ] + extraHashed
        let hashedData = encode(hashed)
        var header: [UInt8] = [4, type.rawValue, key.publicKey.algorithm.rawValue, hash.rawValue]
        header.appendU16(hashedData.count)
        header += hashedData
        let unhashed = [Subpacket(type: SubpacketType.issuer, critical: false, data: key.publicKey.keyID)]
        var draft = Signature(type: type, publicKeyAlgorithm: key.publicKey.algorithm, hashAlgorithm: hash, hashed: hashed,
                              unhashed: unhashed, digestPrefix: [], mpis: [], hashedHeader: header)
        let message = draft.signedBytes(data)
        let digest = hash.digest(message)
        let mpis: [[UInt8]]
        switch key.secret {
        case .rsa(let signing, _):
            let signature = try withTypedDigest(hash, message) { try signing.signature(for: $0, padding: .insecurePKCS1v1_5) }
            mpis = [Array(signature.rawRepresentation)]
        case .ed25519(let signing):
            let raw = Array(try signing.signature(for: digest))
            mpis = [Array(raw[0..<32]), Array(raw[32..<64])]
        case .p256Signing(let signing):
            let raw = Array(try withTypedDigest(hash, message) { try signing.signature(for: $0) }.rawRepresentation)
            mpis = [Array(raw[0..<32]), Array(raw[32..<64])]
        case .x25519, .p256Agreement:
            throw PGPError.unusableKey("an encryption key cannot sign")
        }
        draft = Signature(type: type, publicKeyAlgorithm: key.publicKey.algorithm, hashAlgorithm: hash, hashed: hashed,
                          unhashed: unhashed, digestPrefix: Array(digest.prefix(2)), mpis: mpis, hashedHeader: header)
        return draft
    }

    /// Runs a throwing `body` with the typed digest of `message`.
    static func withTypedDigest<R>(_ algorithm: HashAlgorithm, _ message: [UInt8], _ body: (any Digest) throws -> R) throws -> R {
        switch algorithm {
        case .sha1: try body(Insecure.SHA1.hash(data: message))
        case .sha256: try body(SHA256.hash(data: message))
        case .sha384: try body(SHA384.hash(data: message))
        case .sha512: try body(SHA512.hash(data: message))
        }
    }

    /// A one-pass signature packet body announcing this signature (RFC 4880 §5.4).
    func onePassBody(keyID: [UInt8], last: Bool) -> [UInt8] {
        [3, type.rawValue, hashAlgorithm.rawValue, publicKeyAlgorithm.rawValue] + keyID + [last ? 1 : 0]
    }
}
