#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the vault needs, each durable and private to the user.
enum VaultFileSystem {
    /// Reads `url` whole, refusing files larger than `limit` bytes (read as `.corrupt`).
    static func readAll(_ url: URL, limit: Int) throws(VaultError) -> [UInt8] {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .notFound }
            throw .io("\(url.path): cannot be read (check its owner and permissions)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("\(url.path): cannot be read (check the disk)")
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            // One byte past the limit is enough to know the file is too large.
            if bytes.count > limit { throw .corrupt }
        }
        return bytes
    }

    /// Replaces `url` with `bytes` atomically and durably: a 0600 temporary file in the same
    /// directory, fsync, rename over the target, fsync of the directory. A crash leaves the old
    /// file or the new one, never a mix.
    static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(VaultError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .io("\(directory.path): cannot write the MainKey file here (check the directory exists and is writable)")
        }
        var written = 0
        var failed = false
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failed = true
                break
            }
            written += count
        }
        // fchmod as well: the umask cannot widen 0600, but a pre-existing ACL default could.
        if failed || fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 {
            close(descriptor)
            unlink(temporary)
            throw .io("\(url.path): could not be written completely (disk full?)")
        }
        close(descriptor)
        guard rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw .io("\(url.path): cannot be replaced (check the directory's permissions)")
        }
        syncDirectory(directory)
    }

    /// Creates `directory` (0700) if it does not exist.
    static func ensureDirectory(_ directory: URL) throws(VaultError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io("\(directory.path): cannot create the account directory (check the parent is writable)")
        }
    }

    /// Removes `directory` and everything in it, `first` before anything else; returns false if
    /// `first` is still there afterwards.
    static func wipe(_ directory: URL, first: URL) -> Bool {
        // The MainKey goes first: without it everything else in the directory is ciphertext.
        if unlink(first.path) != 0, errno != ENOENT { return false }
        syncDirectory(directory)
        let manager = FileManager.default
        // Entry by entry first: if the directory itself cannot go (its parent is read-only), its
        // contents still do.
        let entries = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        for entry in entries {
            try? manager.removeItem(at: directory.appendingPathComponent(entry))
        }
        try? manager.removeItem(at: directory)
        syncDirectory(directory.deletingLastPathComponent())
        return !manager.fileExists(atPath: first.path)
    }

    /// fsync of a directory, so a rename or unlink in it survives a power cut.
    static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
