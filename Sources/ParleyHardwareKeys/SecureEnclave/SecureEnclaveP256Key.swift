#if canImport(CryptoKit) && !os(Linux)
import CryptoKit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
import Security

/// FileLock's key on Apple platforms: a P-256 key made inside the Secure Enclave, which never lets its private
/// half out. Usable wherever Parley takes a P-256 key for ECDH (Apple ECIES, FileLock packages, Parley files'
/// P-256 stanzas); the X9.63 derivation stays inside CryptoKit's `SharedSecret`.
///
/// Compiled only where CryptoKit exists. Parley's tests run on Linux with a TPM (`TPMDevice`); this type has not
/// been run by them (docs/HARDWARE-KEYS.md, "Apple platforms").
public struct SecureEnclaveP256Key: P256KeyAgreementSecret {
    private let key: SecureEnclave.P256.KeyAgreement.PrivateKey

    /// Whether this device has a Secure Enclave.
    public static var isAvailable: Bool { SecureEnclave.isAvailable }

    /// A new key in the Secure Enclave, usable only while the device is unlocked and only on this device; with
    /// `userPresence`, each use asks for Touch ID, Face ID or the device passcode (FileLock's and Proton's choice).
    public init(userPresence: Bool) throws {
        var flags: SecAccessControlCreateFlags = [.privateKeyUsage]
        if userPresence { flags.insert(.userPresence) }
        var failure: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, &failure) else {
            throw HardwareKeyError.deviceUnavailable("the Secure Enclave's access control could not be made")
        }
        key = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: access)
    }

    /// A key made earlier, from the Secure Enclave's wrapped form (useless on any other device).
    public init(dataRepresentation: Data) throws {
        key = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: dataRepresentation)
    }

    /// The wrapped form to store: only this device's Secure Enclave can use it.
    public var dataRepresentation: Data { key.dataRepresentation }

    public var publicKey: P256.KeyAgreement.PublicKey { key.publicKey }

    public func x963DerivedKey(with peer: P256.KeyAgreement.PublicKey, sharedInfo: [UInt8], outputByteCount: Int) throws -> SymmetricKey {
        try key.sharedSecretFromKeyAgreement(with: peer)
            .x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: sharedInfo, outputByteCount: outputByteCount)
    }
}
#endif
