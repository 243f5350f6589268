import Foundation
import ParleyClient
import ParleyCrypto
import ParleyHardwareKeys
import ParleyVault

/// What unlocks a vault from inside the chat screen, which cannot prompt on the normal terminal: nothing at
/// all (no PIN), or the PIN typed on the locked screen. The command line's prompting half is `VaultAccess`
/// in the `parley` target.
enum ChatVaultAccess {
    /// What unlocks the vault in `directory` without asking anything (mode none, a TPM key without a PIN); nil
    /// when a PIN is needed.
    static func withoutAsking(_ directory: URL) -> MainKeyAccess? {
        switch VaultRequirement.of(directory) {
        case .nothing: .pin(nil)
        case .tpm(pin: false): .hardware(TPMMainKeyProtector(pin: nil))
        case .pin, .tpm(pin: true), .unusable, .unreadable: nil
        }
    }

    /// A PIN typed on a locked chat's screen, as the vault in `directory` takes it.
    static func typed(_ pin: String, for directory: URL) -> MainKeyAccess {
        guard case .hardware = (try? AccountHome.protection(directory: directory)) ?? .none else { return .pin(pin) }
        return .hardware(TPMMainKeyProtector(pin: pin.nfcBytes))
    }
}
