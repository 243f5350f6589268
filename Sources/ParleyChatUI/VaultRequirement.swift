import Foundation
import ParleyClient
import ParleyHardwareKeys
import ParleyVault

/// What an account's vault needs before it opens, decided once for the command line (which prompts) and the
/// chat's locked screen (which cannot).
public enum VaultRequirement: Sendable, Equatable {
    /// Nothing: its MainKey is in a file only the user can read (or there is no vault to open).
    case nothing
    /// Its PIN.
    case pin
    /// This machine's TPM; with `pin`, the PIN the TPM checks for its key.
    case tpm(pin: Bool)
    /// A hardware key this build cannot use, by the protector's name.
    case unusable(String)
    /// The TPM's blob could not be read (why, in words).
    case unreadable(String)

    /// What the vault in `directory` needs.
    public static func of(_ directory: URL) -> VaultRequirement {
        switch (try? AccountHome.protection(directory: directory)) ?? .none {
        case .none:
            return .nothing
        case .pin:
            return .pin
        case .hardware(let name):
            guard name == TPMMainKeyProtector.protectorName, let sealed = try? MainKeyFile.hardwareBlob(in: directory) else { return .unusable(name) }
            do { return .tpm(pin: try TPMMainKeyProtector.needsPIN(sealed.blob)) } catch { return .unreadable(error.description) }
        }
    }
}
