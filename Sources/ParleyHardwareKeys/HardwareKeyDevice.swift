// swift-crypto's X9.63 KDF over raw bytes (public, behind this SPI): a TPM's ECDH gives the shared point's bytes,
// not a `SharedSecret`. Only where swift-crypto is its own implementation; CryptoKit has no such entry point.
@_spi(ANSIKDF) import Crypto
import ParleyCrypto

/// A device that makes and uses keys whose private half never leaves it (docs/FORMATS.md §17): a TPM 2.0 on
/// Linux (`TPMDevice`). Each key or secret lives outside as a `HardwareKeyBlob` only that device can use.
public protocol HardwareKeyDevice: Sendable {
    /// A new P-256 ECDH key inside the device, with `pin` as its authorization when given.
    func createP256Key(pin: [UInt8]?) throws(HardwareKeyError) -> HardwareKeyBlob
    /// ECDH with the key in `blob`: the shared point's x coordinate (32 bytes).
    func sharedSecret(_ blob: HardwareKeyBlob, with peer: P256.KeyAgreement.PublicKey, pin: [UInt8]?) throws(HardwareKeyError) -> [UInt8]
    /// Seals `secret` (1–128 bytes) to the device, with `pin` as its authorization when given.
    func seal(_ secret: [UInt8], pin: [UInt8]?) throws(HardwareKeyError) -> HardwareKeyBlob
    /// The secret sealed in `blob`.
    func unseal(_ blob: HardwareKeyBlob, pin: [UInt8]?) throws(HardwareKeyError) -> [UInt8]
}

/// A P-256 key held by a device, usable wherever Parley takes a P-256 private key for ECDH (Apple ECIES,
/// FileLock packages, Parley files' P-256 stanzas).
public struct HardwareP256Key: P256KeyAgreementSecret {
    /// The device that holds the key.
    public let device: any HardwareKeyDevice
    /// The key as stored outside the device.
    public let blob: HardwareKeyBlob
    private let pin: [UInt8]?
    /// The public half, read from the blob.
    public let publicKey: P256.KeyAgreement.PublicKey

    /// The key in `blob` on `device`, used with `pin` when it has one; refuses a blob of another kind.
    public init(device: any HardwareKeyDevice, blob: HardwareKeyBlob, pin: [UInt8]?) throws(HardwareKeyError) {
        guard blob.kind == .p256, let point = blob.publicPoint,
              let publicKey = try? P256.KeyAgreement.PublicKey(x963Representation: point)
        else { throw .wrongKind }
        self.device = device
        self.blob = blob
        self.pin = pin
        self.publicKey = publicKey
    }

    /// The ECDH shared secret with `peer`, computed by the device: the shared point's x coordinate.
    public func sharedSecretBytes(with peer: P256.KeyAgreement.PublicKey) throws -> [UInt8] {
        try device.sharedSecret(blob, with: peer, pin: pin)
    }

    public func x963DerivedKey(with peer: P256.KeyAgreement.PublicKey, sharedInfo: [UInt8], outputByteCount: Int) throws -> SymmetricKey {
        #if canImport(CryptoKit)
        // Apple platforms have no TPM; their hardware key is `SecureEnclaveP256Key`.
        throw HardwareKeyError.deviceUnavailable("TPM keys are used on Linux; on Apple platforms the Secure Enclave holds the key")
        #else
        var shared = try sharedSecretBytes(with: peer)
        defer { SecureZero.bytes(&shared) }
        return ANSIKDFx963<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: shared), info: sharedInfo, outputByteCount: outputByteCount)
        #endif
    }
}
