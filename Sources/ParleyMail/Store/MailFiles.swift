import Foundation

/// The mail store's files are the owner's alone: 0700 directories, 0600 files, whatever the umask.
enum MailFiles {
    static func makeDirectory(_ directory: URL) throws(MailboxError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(directory.path) (check that its parent is writable)")
        }
        _ = chmod(directory.path, 0o700)
    }

    /// Creates `file` as 0600 before SQLite opens it, so its -wal and -shm get the same mode.
    static func prepare(_ file: URL) throws(MailboxError) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage("cannot create \(file.path)") }
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
    }
}
