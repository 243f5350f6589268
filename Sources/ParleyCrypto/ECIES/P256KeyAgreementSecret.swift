import Crypto

/// A P-256 private key that can do ECDH, wherever it is held: in memory (swift-crypto's key) or inside a
/// device that never lets it out (a TPM, the Secure Enclave; ParleyHardwareKeys).
public protocol P256KeyAgreementSecret: Sendable {
    /// The public half.
    var publicKey: P256.KeyAgreement.PublicKey { get }
    /// The ECDH shared secret with `peer`: the x coordinate of the shared point, 32 bytes.
    func sharedSecretBytes(with peer: P256.KeyAgreement.PublicKey) throws -> [UInt8]
}

extension P256.KeyAgreement.PrivateKey: P256KeyAgreementSecret {
    public func sharedSecretBytes(with peer: P256.KeyAgreement.PublicKey) throws -> [UInt8] {
        try sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
    }
}
