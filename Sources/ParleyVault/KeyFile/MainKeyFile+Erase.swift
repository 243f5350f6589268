#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MainKeyFile {
    /// Erases an account's local data for good: the MainKey file first (after that every other file in the
    /// directory is ciphertext nobody can open), then the rest of the directory.
    public static func erase(directory: URL) throws(VaultError) {
        guard VaultFileSystem.wipe(directory, first: url(in: directory)) else {
            throw .io("\(directory.path): the key file could not be removed; delete this directory")
        }
    }
}
