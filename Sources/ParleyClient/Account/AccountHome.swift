import Foundation
import ParleyVault

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A home directory's accounts (`HOME/accounts/EMAIL`) before one is opened: where each lives, which there are,
/// how each vault is protected, asking the process that has one open to lock it, and clearing a registration that
/// never went through.
public enum AccountHome {
    /// The signal `requestLock` sends: a running `parley chat` locks its vault, `read --follow` ends.
    public static let lockSignal = SIGUSR1

    /// The directory of `email`'s account under `home`.
    public static func directory(home: URL, email: String) -> URL {
        home.appendingPathComponent("accounts", isDirectory: true)
            .appendingPathComponent(email.lowercased(), isDirectory: true)
    }

    /// The e-mail addresses with an account under `home`.
    public static func accounts(in home: URL) -> [String] {
        let root = home.appendingPathComponent("accounts", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { MainKeyFile.exists(in: root.appendingPathComponent($0)) }.sorted()
    }

    /// How the MainKey of the account in `directory` is protected (before opening it).
    public static func protection(directory: URL) throws(ClientError) -> VaultProtection {
        do { return try MainKeyFile.protection(in: directory) } catch { throw .vault(error) }
    }

    /// Asks the process that has `email`'s account open under `home` to lock now (`parley account lock`).
    /// Returns that process ("pid command"), or nil when no process has the account open.
    public static func requestLock(home: URL, email: String) throws(ClientError) -> String? {
        let directory = directory(home: home, email: email)
        guard MainKeyFile.exists(in: directory) else { throw .noAccount(email) }
        guard let holder = AccountLock.holder(directory: directory) else { return nil }
        guard kill(holder.pid, lockSignal) == 0 else {
            throw .storage("cannot signal process \(holder.pid) (\(holder.command)): errno \(errno)")
        }
        return "\(holder.pid) \(holder.command)"
    }

    /// Removes an unconfirmed account that an earlier `register` left in `home` (its code lost or expired),
    /// so registering the same e-mail again starts afresh. Only a vault without a PIN is opened unasked (a PIN
    /// try would count towards the wipe); returns whether an account was removed. A confirmed one is kept.
    public static func discardUnconfirmed(home: URL, email: String) async throws(ClientError) -> Bool {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        let directory = directory(home: home, email: email)
        guard MainKeyFile.exists(in: directory), (try? protection(directory: directory)) == VaultProtection.none else { return false }
        // In use by another process, or unreadable: not a leftover to clear; `create` then says what is there.
        guard let client = try? ParleyClient.open(home: home, email: email, pin: nil, waitForOtherProcess: .zero),
              await client.accountID == nil else { return false }
        try client.registration.discardUnconfirmed()
        return true
    }
}
