#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How to open a MainKey file: with its PIN (nil for mode none), or with the hardware protector that wrapped it.
public enum MainKeyAccess: Sendable {
    case pin(String?)
    case hardware(any HardwareKeyProtector)
}

/// How a MainKey file should protect the key from now on.
public enum MainKeyProtection: Sendable {
    case none
    case pin(String)
    case hardware(any HardwareKeyProtector)
}

extension MainKeyFile {
    /// Unlocks the file with `access`.
    public static func unlock(in directory: URL, with access: MainKeyAccess) throws(VaultError) -> MainKey {
        switch access {
        case .pin(let pin): try unlock(in: directory, pin: pin)
        case .hardware(let protector): try unlock(in: directory, protector: protector)
        }
    }

    /// Re-wraps `key` (which must be the file's) as `protection` says; nothing it encrypts is touched.
    public static func protect(in directory: URL, key: MainKey, as protection: MainKeyProtection) throws(VaultError) {
        switch protection {
        case .none: try changePIN(in: directory, key: key, newPIN: nil)
        case .pin(let pin): try changePIN(in: directory, key: key, newPIN: pin)
        case .hardware(let protector): try changeProtection(in: directory, key: key, protector: protector)
        }
    }

    /// The protector's name and blob of a file in hardware mode; nil in the other modes. For a caller that must
    /// know, before unlocking, what the device will ask (a TPM key's PIN).
    public static func hardwareBlob(in directory: URL) throws(VaultError) -> (name: String, blob: [UInt8])? {
        guard case .hardware(let name, let blob) = try load(directory).body else { return nil }
        return (name, blob)
    }
}
