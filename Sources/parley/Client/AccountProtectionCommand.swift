import ArgumentParser
import Foundation
import ParleyClient
import ParleyCrypto
import ParleyHardwareKeys
import ParleyVault
import ParleyTerminal

extension Parley.Account {
    /// `parley account set-protection`: keep the MainKey sealed to the TPM, under a PIN, or in a plain file.
    struct SetProtection: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-protection",
            abstract: "Protect the vault's key with the TPM (optionally with a PIN the TPM checks), a PIN, or nothing.",
            discussion: """
                hardware: the MainKey is sealed to this machine's TPM 2.0 (/dev/tpmrm0, or PARLEY_TPM_TCTI); with --pin \
                the TPM checks the PIN and locks out guessing itself. pin: the MainKey is sealed under scrypt(PIN) \
                (ten wrong PINs erase the local data). none: a file only you can read. Only the MainKey is re-wrapped. \
                The current PIN comes from PARLEY_PIN or a prompt, a new one from PARLEY_NEW_PIN or a prompt. If the \
                TPM is lost or cleared, the vault cannot be opened: sign in again with your password (docs/HARDWARE-KEYS.md).
                """)
        enum Mode: String, ExpressibleByArgument, CaseIterable { case hardware, pin, none }

        @OptionGroup var options: ClientOptions
        @Argument(help: "hardware, pin or none.") var mode: Mode
        @Flag(help: "With hardware: the TPM key has a PIN (4–32 bytes) that the TPM checks.") var pin = false

        func validate() throws {
            if pin, mode != .hardware { throw ValidationError("--pin goes with 'hardware' (for a vault PIN, say 'pin')") }
        }

        func run() async throws {
            let current = try options.vaultAccess()
            let client = try options.open(access: current)
            let protection: MainKeyProtection
            switch mode {
            case .none: protection = .none
            case .pin: protection = .pin(try VaultAccess.newPIN(prompt: "New vault PIN: "))
            case .hardware:
                var tpmPIN: [UInt8]?
                if pin {
                    let typed = try VaultAccess.newPIN(prompt: "New TPM PIN: ").nfcBytes
                    guard (4...32).contains(typed.count) else { throw CommandFailure("a TPM PIN must be 4 to 32 bytes") }
                    tpmPIN = typed
                }
                protection = .hardware(TPMMainKeyProtector(pin: tpmPIN))
            }
            do { try await client.vault.changeProtection(current: current, to: protection) } catch { throw CommandFailure("\(error)") }
            options.output(["protection": mode.rawValue]) {
                switch mode {
                case .hardware: "The vault's key is sealed to this machine's TPM\(pin ? ", behind a PIN the TPM checks" : ""); on another machine it will not open."
                case .pin: "The vault's key is sealed under your PIN."
                case .none: "The vault's key is kept in a file only you can read."
                }
            }
        }
    }
}
