import Foundation
import ParleyVault

/// The account's vault on this device: its MainKey dropped and taken up again, and how it is protected (none, a
/// PIN, a hardware key). Everything the account stores is sealed under that key (docs/CLIENT.md §3).
public struct AccountVault: Sendable {
    /// The account's directory, where the MainKey file is.
    let directory: URL
    /// The MainKey in memory, dropped after the idle timeout or on `lock()`.
    let autoLock: AutoLock

    /// Whether the MainKey was dropped (autolock or `lock()`): unlock with the PIN.
    public var isLocked: Bool { autoLock.isLocked }

    /// Drops the MainKey from memory; the next use needs `unlock(pin:)`.
    public func lock() {
        autoLock.lock()
    }

    // Opening the MainKey runs its key derivation (scrypt) or talks to a TPM: tenths of a second. Each of these
    // runs on a thread of its own (`OwnThread`), not on the cooperative pool that the connection and an app's
    // interface share, so an unlock never stalls them.

    /// Unlocks again after autolock with the PIN (or nil for mode none).
    public func unlock(pin: String?) async throws(ClientError) {
        try await unlock(access: .pin(pin))
    }

    /// Unlocks again after autolock with `access`.
    public func unlock(access: MainKeyAccess) async throws(ClientError) {
        let (directory, autoLock) = (self.directory, self.autoLock)
        try await OwnThread.run { () throws(ClientError) in
            do throws(VaultError) { autoLock.unlock(try MainKeyFile.unlock(in: directory, with: access)) } catch { throw .vault(error) }
        }
    }

    /// Moves the MainKey to another protection (none, a PIN, a hardware key), opened with `current`. Only the
    /// MainKey is re-wrapped; no data is re-encrypted.
    public func changeProtection(current: MainKeyAccess, to protection: MainKeyProtection) async throws(ClientError) {
        let directory = self.directory
        try await OwnThread.run { () throws(ClientError) in
            do throws(VaultError) {
                let key = try MainKeyFile.unlock(in: directory, with: current)
                try MainKeyFile.protect(in: directory, key: key, as: protection)
            } catch {
                throw .vault(error)
            }
        }
    }

    /// Changes the vault PIN (nil: no PIN). Re-wraps the MainKey only; no data is re-encrypted.
    public func changePIN(current: String?, new: String?) async throws(ClientError) {
        let directory = self.directory
        try await OwnThread.run { () throws(ClientError) in
            do throws(VaultError) {
                let key = try MainKeyFile.unlock(in: directory, pin: current)
                try MainKeyFile.changePIN(in: directory, key: key, newPIN: new)
            } catch {
                throw .vault(error)
            }
        }
    }

    /// How the MainKey is protected.
    public func protection() throws(ClientError) -> VaultProtection {
        try AccountHome.protection(directory: directory)
    }
}
