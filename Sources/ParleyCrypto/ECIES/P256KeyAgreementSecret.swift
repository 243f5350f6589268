import Crypto

/// A P-256 private key that can do ECDH, wherever it is held: in memory (swift-crypto's key) or inside a
/// device that never lets it out (a TPM; ParleyHardwareKeys).
public protocol P256KeyAgreementSecret: Sendable {
    /// The public half.
    var publicKey: P256.KeyAgreement.PublicKey { get }
    /// The ANSI X9.63 KDF with SHA-256 over the ECDH shared secret with `peer` (the shared point's x coordinate),
    /// `sharedInfo` as its shared info: what Apple's ECIES derives its key from.
    func x963DerivedKey(with peer: P256.KeyAgreement.PublicKey, sharedInfo: [UInt8], outputByteCount: Int) throws -> SymmetricKey
}

extension P256.KeyAgreement.PrivateKey: P256KeyAgreementSecret {
    // The derivation stays inside swift-crypto's (and on Apple platforms CryptoKit's) `SharedSecret`.
    public func x963DerivedKey(with peer: P256.KeyAgreement.PublicKey, sharedInfo: [UInt8], outputByteCount: Int) throws -> SymmetricKey {
        try sharedSecretFromKeyAgreement(with: peer)
            .x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: outputByteCount)
    }

    /// The ECDH shared secret with `peer` as bytes: the x coordinate of the shared point (tests compare a
    /// hardware key's result with it).
    public func sharedSecretBytes(with peer: P256.KeyAgreement.PublicKey) throws -> [UInt8] {
        try sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
    }
}
