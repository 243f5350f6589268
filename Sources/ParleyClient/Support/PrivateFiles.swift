import Foundation

/// What Parley writes in a home is the owner's alone: 0600 files in 0700 directories, whatever the umask.
///
/// A umask of 022 (the usual default) would otherwise leave `client.sqlite`, its `-wal` and `-shm`, and cached
/// files readable by every local user. The contents are sealed under the MainKey, but which conversations
/// exist, when messages came and how many is not, and nobody else needs to read any of it.
enum PrivateFiles {
    /// Creates `directory` and each missing parent as 0700; a directory that already exists keeps its mode
    /// unless it is `directory` itself, which is narrowed to 0700.
    static func makeDirectory(_ directory: URL) throws(ClientError) {
        var missing: [String] = []
        var path = directory.standardizedFileURL.path
        while !path.isEmpty, path != "/", !FileManager.default.fileExists(atPath: path) {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .storage("cannot create \(path) (check that its parent is writable)")
        }
        _ = chmod(directory.path, 0o700)
    }

    /// Creates `file` empty as 0600 if it is missing, else narrows it to 0600. Called before SQLite opens a
    /// database, because SQLite gives the `-wal` and `-shm` files it creates the database file's mode.
    static func prepare(_ file: URL) throws(ClientError) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage("cannot create \(file.lastPathComponent) in \(file.deletingLastPathComponent().path)") }
        _ = fchmod(descriptor, 0o600)
        close(descriptor)
    }

    /// Narrows files that exist to 0600 (those an older version made with the umask's mode).
    static func narrow(_ files: [URL]) {
        for file in files { _ = chmod(file.path, 0o600) }
    }

    /// Writes `data` atomically as a 0600 file: a temporary file beside it, renamed over it.
    static func write(_ data: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
