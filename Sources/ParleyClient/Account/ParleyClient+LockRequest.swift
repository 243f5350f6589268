import Foundation
import ParleyVault

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ParleyClient {
    /// The signal `requestLock` sends: a running `parley chat` locks its vault, `read --follow` ends.
    public static let lockSignal = SIGUSR1

    /// Asks the process that has `email`'s account open under `home` to lock now (`parley account lock`).
    /// Returns that process ("pid command"), or nil when no process has the account open.
    public static func requestLock(home: URL, email: String) throws(ClientError) -> String? {
        let directory = accountDirectory(home: home, email: email)
        guard MainKeyFile.exists(in: directory) else { throw .noAccount(email) }
        guard let holder = AccountLock.holder(directory: directory) else { return nil }
        guard kill(holder.pid, lockSignal) == 0 else {
            throw .storage("cannot signal process \(holder.pid) (\(holder.command)): errno \(errno)")
        }
        return "\(holder.pid) \(holder.command)"
    }
}
