import Foundation
import ParleyChatUI
import ParleyClient
import ParleyHardwareKeys
import ParleyVault
import ParleyTerminal

/// What unlocks an account's vault, asked of the person only when needed: a PIN vault's PIN, or for a vault
/// sealed to the TPM, the TPM (PARLEY_TPM_TCTI) and the TPM key's PIN when it has one.
enum VaultAccess {
    static func access(home: URL, email: String) throws -> MainKeyAccess {
        switch VaultRequirement.of(AccountHome.directory(home: home, email: email)) {
        case .nothing:
            return .pin(nil)
        case .pin:
            return .pin(try SecretInput.pin(prompt: "Vault PIN for \(email): "))
        case .tpm(let needsPIN):
            let pin = needsPIN ? try SecretInput.pin(prompt: "TPM PIN for \(email): ", fromStandardInput: false) : nil
            return .hardware(TPMMainKeyProtector(pin: pin))
        case .unusable(let name):
            throw CommandFailure("\(email)'s vault is sealed to a hardware key '\(name)' this parley cannot use")
        case .unreadable(let why):
            throw CommandFailure("\(email)'s vault: \(why)")
        }
    }

    /// A new PIN: PARLEY_NEW_PIN, else the terminal.
    static func newPIN(prompt: String) throws -> String {
        if let value = ProcessInfo.processInfo.environment["PARLEY_NEW_PIN"], !value.isEmpty { return value }
        return try SecretInput.readHidden(prompt: prompt)
    }
}
