#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MainKeyFile {
    /// Reads and parses the file in `directory`.
    static func load(_ directory: URL) throws(VaultError) -> MainKeyFileContents {
        try MainKeyFileContents.decode(
            VaultFileSystem.readAll(url(in: directory), limit: MainKeyFileContents.maximumFileSize))
    }

    /// Writes `contents` durably over the file in `directory`.
    static func store(_ contents: MainKeyFileContents, in directory: URL) throws(VaultError) {
        var bytes = contents.encoded()
        defer { bytes.resetBytes() }
        try VaultFileSystem.writeAtomically(bytes, to: url(in: directory))
    }

    /// Creates the directory if needed and writes a first file; an existing file is never replaced.
    static func createFile(in directory: URL, _ contents: MainKeyFileContents) throws(VaultError) {
        try VaultFileSystem.ensureDirectory(directory)
        try withDirectoryLock(directory) { () throws(VaultError) in
            guard !exists(in: directory) else {
                throw .io(
                    "\(url(in: directory).path) already exists: unlock it, or remove the account's local data before creating a new key")
            }
            try store(contents, in: directory)
        }
    }

    /// Replaces the file with `makeContents()` after checking `key` is the key it holds.
    static func replace(
        in directory: URL, key: MainKey, _ makeContents: () throws(VaultError) -> MainKeyFileContents
    ) throws(VaultError) {
        try withDirectoryLock(directory) { () throws(VaultError) in
            let current = try load(directory)
            guard ConstantTime.equals(key.check, current.keyCheck) else { throw .cannotDecrypt }
            try store(makeContents(), in: directory)
        }
    }

    /// Returns `key` if it matches the file's key check, else the file is damaged.
    static func checked(_ key: MainKey, against contents: MainKeyFileContents) throws(VaultError) -> MainKey {
        guard ConstantTime.equals(key.check, contents.keyCheck) else { throw .corrupt }
        return key
    }

    /// Runs `body` holding an exclusive advisory lock on `directory`, so two processes unlocking at
    /// once cannot both read the same attempt counter and get a free try.
    static func withDirectoryLock<T>(_ directory: URL, _ body: () throws(VaultError) -> T) throws(VaultError) -> T {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .notFound }
            throw .io("\(directory.path): cannot open the account directory (check its permissions)")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io("\(directory.path): cannot lock the account directory") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
