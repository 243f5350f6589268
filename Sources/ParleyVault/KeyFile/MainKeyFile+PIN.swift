#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

extension MainKeyFile {
    /// Tries `pin` against a PIN-mode file: count first, then try, then reset or wipe.
    static func unlockPIN(
        in directory: URL, contents: MainKeyFileContents, pin: String, salt: [UInt8], nonce: [UInt8], wrapped: [UInt8]
    ) throws(VaultError) -> MainKey {
        // A PIN too short to have been accepted cannot be right: refuse it without using an attempt.
        _ = try PIN.normalized(pin)
        // A counter at the limit means an earlier process died between counting and wiping.
        guard Int(contents.failedAttempts) < maximumAttempts else { throw wipe(directory) }

        // Durably count this try BEFORE running scrypt: killing the process during the try
        // must not give the attacker a free attempt.
        var counted = contents
        counted.failedAttempts += 1
        try store(counted, in: directory)
        MainKeyFileTestHooks.afterCounting?()

        guard let key = try MainKeyFileContents.unwrapPIN(salt: salt, nonce: nonce, wrapped: wrapped, pin: pin) else {
            if Int(counted.failedAttempts) >= maximumAttempts { throw wipe(directory) }
            throw .wrongPIN(attemptsLeft: maximumAttempts - Int(counted.failedAttempts))
        }
        counted.failedAttempts = 0
        try store(counted, in: directory)
        return try checked(key, against: contents)
    }

    /// Removes the account directory after too many wrong PINs; `.wiped`, or `.io` if the key file survived.
    static func wipe(_ directory: URL) -> VaultError {
        guard VaultFileSystem.wipe(directory, first: url(in: directory)) else {
            return .io("\(directory.path): too many wrong PINs, but the key file could not be removed; delete this directory")
        }
        return .wiped
    }
}

/// Test seams; nil in production.
enum MainKeyFileTestHooks {
    /// Runs after a PIN try was counted on disk and before the PIN is tried, so a test can prove the order.
    @TaskLocal static var afterCounting: (@Sendable () -> Void)?
}
