import Foundation
import ParleyClient
import ParleyHardwareKeys
import ParleyVault

/// What unlocks a vault from inside the chat screen, which cannot prompt on the normal terminal: nothing at
/// all (no PIN), or the PIN typed on the locked screen. The command line's prompting half is `VaultAccess`
/// in the `parley` target.
enum ChatVaultAccess {
    /// What unlocks the vault in `directory` without asking anything (mode none, a TPM key without a PIN); nil
    /// when a PIN is needed.
    static func withoutAsking(_ directory: URL) -> MainKeyAccess? {
        switch (try? ParleyClient.protection(directory: directory)) ?? .none {
        case .none: return .pin(nil)
        case .pin: return nil
        case .hardware:
            guard let sealed = try? MainKeyFile.hardwareBlob(in: directory), (try? TPMMainKeyProtector.needsPIN(sealed.blob)) == false else { return nil }
            return .hardware(TPMMainKeyProtector(pin: nil))
        }
    }

    /// A PIN typed on a locked chat's screen, as the vault in `directory` takes it.
    static func typed(_ pin: String, for directory: URL) -> MainKeyAccess {
        guard case .hardware = (try? ParleyClient.protection(directory: directory)) ?? .none else { return .pin(pin) }
        return .hardware(TPMMainKeyProtector(pin: Array(pin.precomposedStringWithCanonicalMapping.utf8)))
    }
}
