import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An incremental hash that keeps swift-crypto's typed digest, which the RSA and ECDSA APIs need,
/// so a signature over a stream of any length is made or checked without holding the data.
struct TypedHasher {
    private enum State {
        case sha1(Insecure.SHA1)
        case sha256(SHA256)
        case sha384(SHA384)
        case sha512(SHA512)
    }

    private var state: State
    /// Text-mode signatures hash CRLF line endings; this remembers whether the last byte was CR across chunks.
    private var previousWasCR = false
    /// Whether `updateDocument` converts bare LF to CRLF (text signatures).
    let canonicalizesText: Bool

    init(_ algorithm: HashAlgorithm, text: Bool = false) {
        canonicalizesText = text
        switch algorithm {
        case .sha1: state = .sha1(Insecure.SHA1())
        case .sha256: state = .sha256(SHA256())
        case .sha384: state = .sha384(SHA384())
        case .sha512: state = .sha512(SHA512())
        }
    }

    /// Hashes bytes as they are.
    mutating func update<D: DataProtocol>(_ data: D) {
        switch state {
        case .sha1(var h): h.update(data: data); state = .sha1(h)
        case .sha256(var h): h.update(data: data); state = .sha256(h)
        case .sha384(var h): h.update(data: data); state = .sha384(h)
        case .sha512(var h): h.update(data: data); state = .sha512(h)
        }
    }

    /// Hashes a chunk of the signed document, canonicalizing line endings for text signatures.
    mutating func updateDocument(_ chunk: [UInt8]) {
        guard canonicalizesText else { return update(chunk) }
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + chunk.count / 32)
        for byte in chunk {
            if byte == 0x0A && !previousWasCR { out.append(0x0D) }
            out.append(byte)
            previousWasCR = byte == 0x0D
        }
        update(out)
    }

    /// The typed digest.
    func finalize() -> any Digest {
        switch state {
        case .sha1(let h): h.finalize()
        case .sha256(let h): h.finalize()
        case .sha384(let h): h.finalize()
        case .sha512(let h): h.finalize()
        }
    }
}

extension Signature {
    /// A hasher for this signature's document, ready for `updateDocument`.
    func documentHasher() -> TypedHasher {
        var hasher = TypedHasher(hashAlgorithm, text: type == .text)
        hasher.update(salt)  // v6: the salt comes before the document
        return hasher
    }

    /// Verifies this signature given `hasher` fed with the document only (the trailer is added here).
    func verify(documentHasher hasher: TypedHasher, by key: PublicKey) throws {
        var hasher = hasher
        hasher.update(trailer)
        try verify(digest: hasher.finalize(), by: key)
    }

    /// Verifies this signature against the finished digest of document and trailer.
    func verify(digest: any Digest, by key: PublicKey) throws {
        guard key.algorithm == publicKeyAlgorithm || (key.algorithm.isRSA && publicKeyAlgorithm.isRSA) else {
            throw PGPError.badSignature("signature algorithm does not match the key")
        }
        // A v6 key makes only v6 signatures, and a v6 signature comes only from a v6 key (RFC 9580 §5.2.3).
        guard (key.version == 6) == (version == 6) else { throw PGPError.badSignature("signature version does not match the key") }
        guard !hasUnknownCriticalSubpacket else { throw PGPError.badSignature("unknown critical subpacket") }
        guard hashAlgorithm.digestSize >= publicKeyAlgorithm.minimumHashSize else {
            throw PGPError.badSignature("an Ed448 signature made with a hash shorter than 512 bits")
        }
        let digestBytes = Array(digest.withUnsafeBytes { Array($0) })
        guard Array(digestBytes.prefix(2)) == digestPrefix else { throw PGPError.badSignature("digest does not match") }
        let valid: Bool
        switch key.material {
        case .rsa(let n, let e):
            guard let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                throw PGPError.unsupported("RSA key size (swift-crypto verifies 1024 to 16384-bit keys)")
            }
            let signature = _RSA.Signing.RSASignature(rawRepresentation: mpis[0].leftPadded(to: n.drop(while: { $0 == 0 }).count))
            valid = publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5)
        case .eddsa(let publicKeyBytes):
            let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: publicKeyBytes)
            let signature = mpis[0].leftPadded(to: 32) + mpis[1].leftPadded(to: 32)
            // Legacy EdDSA signs the digest, not the message.
            valid = publicKey.isValidSignature(signature, for: digestBytes)
        case .ecdsa(_, let point):
            let publicKey = try P256.Signing.PublicKey(x963Representation: point)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: mpis[0].leftPadded(to: 32) + mpis[1].leftPadded(to: 32))
            valid = publicKey.isValidSignature(signature, for: digest)
        case .ed25519(let publicKeyBytes):
            let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: publicKeyBytes)
            // Ed25519 signs the digest (RFC 9580 §5.2.3.4), as legacy EdDSA did.
            valid = mpis[0].count == 64 && publicKey.isValidSignature(mpis[0], for: digestBytes)
        case .ed448(let publicKeyBytes):
            // Ed448 signs the digest too, pure Ed448 with an empty context (RFC 9580 §5.2.3.5).
            let publicKey = try Curve448.Signing.PublicKey(rawRepresentation: publicKeyBytes)
            valid = mpis[0].count == Curve448.Signing.signatureSize && publicKey.isValidSignature(mpis[0], for: digestBytes)
        case .ecdh, .x25519, .x448:
            throw PGPError.badSignature("an encryption key cannot sign")
        }
        guard valid else { throw PGPError.badSignature("signature does not verify") }
    }

    /// A signature not yet made: its hashed header is fixed, so the document can be hashed before signing.
    static func draft(type: SignatureType, by key: PublicKey, hash: HashAlgorithm, time: UInt32,
                      extraHashed: [Subpacket] = []) -> Signature {
        var created: [UInt8] = []
        created.appendU32(time)
        let version = key.version
        // Callers ask for SHA-256 by default; an Ed448 key raises it to the SHA-512 it needs (RFC 9580 §5.2.3.5).
        let hash = hash.digestSize >= key.algorithm.minimumHashSize ? hash : .sha512
        let hashed = [
            Subpacket(type: SubpacketType.creationTime, critical: version == 6, data: created),
            Subpacket(type: SubpacketType.issuerFingerprint, critical: false, data: [version] + key.fingerprint),
        ] + extraHashed
        let hashedData = encode(hashed)
        var header: [UInt8] = [version, type.rawValue, key.algorithm.rawValue, hash.rawValue]
        if version == 6 { header.appendU32(UInt32(hashedData.count)) } else { header.appendU16(hashedData.count) }
        header += hashedData
        // v6: the issuer fingerprint is enough (RFC 9580 §5.2.3.12); a fresh salt per signature (§5.2.4).
        let unhashed = version == 6 ? [] : [Subpacket(type: SubpacketType.issuer, critical: false, data: key.keyID)]
        let salt = version == 6 ? randomBytes(hash.saltSize) : []
        return Signature(type: type, publicKeyAlgorithm: key.algorithm, hashAlgorithm: hash, hashed: hashed,
                         unhashed: unhashed, digestPrefix: [], mpis: [], hashedHeader: header, version: version, salt: salt)
    }

    /// Signs a draft with `key`, given `hasher` fed with the document only.
    func signed(documentHasher hasher: TypedHasher, by key: UnlockedKey) throws -> Signature {
        var hasher = hasher
        hasher.update(trailer)
        let digest = hasher.finalize()
        let digestBytes = digest.withUnsafeBytes { Array($0) }
        let mpis: [[UInt8]]
        switch key.secret {
        case .rsa(let signing, _):
            mpis = [Array(try signing.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation)]
        case .ed25519(let signing):
            let raw = Array(try signing.signature(for: digestBytes))
            mpis = publicKeyAlgorithm == .ed25519 ? [raw] : [Array(raw[0..<32]), Array(raw[32..<64])]
        case .p256Signing(let signing):
            let raw = Array(try signing.signature(for: digest).rawRepresentation)
            mpis = [Array(raw[0..<32]), Array(raw[32..<64])]
        case .ed448(let signing):
            mpis = [try signing.signature(for: digestBytes)]
        case .x25519, .p256Agreement, .x448:
            throw PGPError.unusableKey("an encryption key cannot sign")
        }
        return Signature(type: type, publicKeyAlgorithm: publicKeyAlgorithm, hashAlgorithm: hashAlgorithm, hashed: hashed,
                         unhashed: unhashed, digestPrefix: Array(digestBytes.prefix(2)), mpis: mpis, hashedHeader: hashedHeader,
                         version: version, salt: salt)
    }
}
