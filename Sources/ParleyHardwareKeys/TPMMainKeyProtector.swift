import ParleyCrypto
import ParleyVault

/// Keeps an account's MainKey sealed to the TPM (the MainKey file's hardware mode, docs/FORMATS.md §11 and §17):
/// the file holds a PHK1 sealed-secret blob that only this TPM unseals, with the PIN as the TPM object's
/// authorization when there is one, so the TPM's own lockout limits guesses.
public struct TPMMainKeyProtector: HardwareKeyProtector {
    /// The name the MainKey file records.
    public static let protectorName = "tpm2"

    /// The TPM the MainKey is sealed to.
    public let device: TPMDevice
    private let pin: [UInt8]?

    /// Seals to and unseals from `device`, with the TPM PIN `pin` when the sealed object has one.
    public init(device: TPMDevice = TPMDevice(), pin: [UInt8]?) {
        self.device = device
        self.pin = pin
    }

    public var name: String { Self.protectorName }

    public func wrap(_ key: MainKey) throws -> [UInt8] {
        let bytes = key.withUnsafeBytes { Array($0) }
        return try device.seal(bytes, pin: pin).bytes
    }

    /// Unseals the MainKey; the TPM's reason for refusing is thrown as words the vault passes on.
    public func unwrap(_ blob: [UInt8]) throws -> MainKey {
        var bytes: [UInt8]
        do {
            bytes = try device.unseal(try HardwareKeyBlob(bytes: blob), pin: pin)
        } catch {
            throw VaultError.io("\(error)")
        }
        defer { SecureZero.bytes(&bytes) }
        return try MainKey(bytes: bytes)
    }

    /// Whether the sealed MainKey in `blob` (a MainKey file's hardware body) needs a PIN.
    public static func needsPIN(_ blob: [UInt8]) throws(HardwareKeyError) -> Bool {
        try HardwareKeyBlob(bytes: blob).needsPIN
    }
}
