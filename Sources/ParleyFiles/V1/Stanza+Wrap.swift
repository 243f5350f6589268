import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
import _CryptoExtras

extension Stanza {
    /// Wraps `fileKey` for `recipient`, drawing ephemeral keys and salts from `random`.
    ///
    /// X-Wing encapsulation takes its randomness from swift-crypto itself: its API has no way
    /// to inject it, so X-Wing stanzas are the one part of a file tests cannot reproduce.
    static func wrap(fileKey: [UInt8], for recipient: FileRecipient, random: some RandomSource) throws -> Stanza {
        switch recipient {
        case .p256(let publicKey):
            return try wrapP256(fileKey: fileKey, to: publicKey, ephemeral: P256.KeyAgreement.PrivateKey(random: random))
        case .x25519(let publicKey):
            let ephemeral = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: random.bytes(32))
            return try wrapX25519(fileKey: fileKey, to: publicKey, ephemeral: ephemeral)
        case .xwing(let publicKey):
            return try wrapXWing(fileKey: fileKey, to: publicKey)
        case .passphrase(let passphrase, let logN, let lanes):
            return try wrapPassphrase(
                fileKey: fileKey, passphrase: passphrase, salt: random.bytes(16), logN: logN, lanes: lanes)
        }
    }

    /// Kind 01: Apple ECIES, variable-IV variant, of the 32-byte file key.
    static func wrapP256(
        fileKey: [UInt8], to recipient: P256.KeyAgreement.PublicKey, ephemeral: P256.KeyAgreement.PrivateKey
    ) throws -> Stanza {
        let blob = try AppleECIES.seal(fileKey, to: recipient, variant: .variableIV, ephemeral: ephemeral)
        return Stanza(kind: .p256, body: blob)
    }

    /// Kind 02: `E || AES-GCM(HKDF(Z, E || R, "parley-file-v1/x25519"), zero nonce, fileKey)`.
    static func wrapX25519(
        fileKey: [UInt8], to recipient: Curve25519.KeyAgreement.PublicKey,
        ephemeral: Curve25519.KeyAgreement.PrivateKey
    ) throws -> Stanza {
        let share = Array(ephemeral.publicKey.rawRepresentation)
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipient)
        let key = try x25519WrapKey(shared, share: share, recipient: Array(recipient.rawRepresentation))
        return Stanza(kind: .x25519, body: share + (try seal(fileKey, key)))
    }

    /// Kind 03: `ct || AES-GCM(HKDF(ss, "", "parley-file-v1/xwing"), zero nonce, fileKey)`.
    static func wrapXWing(fileKey: [UInt8], to recipient: XWingMLKEM768X25519.PublicKey) throws -> Stanza {
        let result = try recipient.encapsulate()
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: result.sharedSecret, salt: [UInt8](), info: FileFormatV1.xwingInfo, outputByteCount: 32)
        return Stanza(kind: .xwing, body: Array(result.encapsulated) + (try seal(fileKey, key)))
    }

    /// Kind 04 (one lane): `salt || logN || AES-GCM(scrypt(passphrase, prefix || salt, 2^logN, 8, 1), zero nonce, fileKey)`;
    /// kind 05 (several): `salt || logN || lanes || AES-GCM(scrypt(…, 2^logN, 8, lanes), zero nonce, fileKey)`.
    static func wrapPassphrase(
        fileKey: [UInt8], passphrase: String, salt: [UInt8], logN: UInt8, lanes: UInt8
    ) throws -> Stanza {
        let key = try passphraseKey(passphrase, salt: salt, logN: logN, lanes: lanes)
        let wrapped = try seal(fileKey, key)
        return lanes == 1
            ? Stanza(kind: .passphrase, body: salt + [logN] + wrapped)
            : Stanza(kind: .passphraseLanes, body: salt + [logN, lanes] + wrapped)
    }

    /// For a passphrase stanza: why its scrypt parameters may not be used, or nil when they may.
    var scryptParametersProblem: String? {
        guard kind.isPassphrase, body.count == kind.bodyLength else { return "not a passphrase stanza" }
        return FileRecipient.scryptParametersProblem(
            logN: body[16], lanes: kind == .passphraseLanes ? body[17] : 1, logNRange: FileRecipient.openLogNRange)
    }

    /// Returns the file key if `identity` opens this stanza, nil if it does not (wrong key or altered).
    func unwrap(with identity: FileIdentity) throws -> [UInt8]? {
        guard identity.opens(kind), body.count == kind.bodyLength else { return nil }
        switch identity {
        case .p256(let privateKey):
            return try? AppleECIES.open(body, using: privateKey, variant: .variableIV)
        case .p256Held(let key):
            // A key that could not be used (no TPM, wrong PIN, locked out) is said, not taken for "not this file".
            do {
                return try AppleECIES.open(body, using: key, variant: .variableIV)
            } catch .keyUnavailable(let why) {
                throw FileError.invalidKey(why)
            } catch {
                return nil
            }
        case .x25519(let privateKey):
            let share = Array(body[0..<32])
            guard let ephemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: share),
                let shared = try? privateKey.sharedSecretFromKeyAgreement(with: ephemeral),
                let key = try? Self.x25519WrapKey(
                    shared, share: share, recipient: Array(privateKey.publicKey.rawRepresentation))
            else { return nil }
            return Self.open(body[32...], key)
        case .xwing(let privateKey):
            guard let shared = try? privateKey.decapsulate(Data(body[0..<1120])) else { return nil }
            let key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: shared, salt: [UInt8](), info: FileFormatV1.xwingInfo, outputByteCount: 32)
            return Self.open(body[1120...], key)
        case .passphrase(let passphrase):
            // The header check already refused such parameters; this guards direct callers.
            guard scryptParametersProblem == nil else { return nil }
            let lanes = kind == .passphraseLanes ? body[17] : 1
            let key = try Self.passphraseKey(passphrase, salt: Array(body[0..<16]), logN: body[16], lanes: lanes)
            return Self.open(body[(kind == .passphraseLanes ? 18 : 17)...], key)
        }
    }

    /// HKDF(Z, E || R, "parley-file-v1/x25519"), refusing the all-zero secret of a low-order share.
    static func x25519WrapKey(_ shared: SharedSecret, share: [UInt8], recipient: [UInt8]) throws -> SymmetricKey {
        let isZero = shared.withUnsafeBytes { bytes in bytes.allSatisfy { $0 == 0 } }
        guard !isZero else { throw FileError.cannotDecrypt }
        return shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: share + recipient, sharedInfo: FileFormatV1.x25519Info, outputByteCount: 32)
    }

    /// scrypt of the NFC-normalised UTF-8 passphrase.
    static func passphraseKey(_ passphrase: String, salt: [UInt8], logN: UInt8, lanes: UInt8) throws -> SymmetricKey {
        let normalized = passphrase.nfcBytes
        // swift-crypto passes the passphrase's base address to BoringSSL unchecked: never empty.
        guard !normalized.isEmpty, normalized.count <= 1024 else {
            throw FileError.invalidKey("a passphrase must be 1 to 1024 bytes of UTF-8")
        }
        do {
            return try KDF.Scrypt.deriveKey(
                from: normalized, salt: FileFormatV1.scryptSaltPrefix + salt, outputByteCount: 32,
                rounds: 1 << Int(logN), blockSize: 8, parallelism: Int(lanes))
        } catch {
            throw FileError.invalidKey("scrypt could not run at memory factor 2^\(logN) (not enough memory?)")
        }
    }

    /// AES-256-GCM with the zero nonce: every wrap key is used exactly once.
    static func seal(_ fileKey: [UInt8], _ key: SymmetricKey) throws -> [UInt8] {
        let box = try AES.GCM.seal(fileKey, using: key, nonce: AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12)))
        return Array(box.ciphertext + box.tag)
    }

    /// Opens a 48-byte wrapped file key; nil when it does not authenticate.
    static func open(_ wrapped: ArraySlice<UInt8>, _ key: SymmetricKey) -> [UInt8]? {
        guard wrapped.count == 48,
            let box = try? AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: [UInt8](repeating: 0, count: 12)),
                ciphertext: wrapped.prefix(32), tag: wrapped.suffix(16)),
            let opened = try? AES.GCM.open(box, using: key)
        else { return nil }
        return Array(opened)
    }
}
