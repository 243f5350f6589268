import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an output path names before anything is written: nothing yet, a regular file (replaced only with
/// `--force`, through a temporary file and a rename), a directory (refused), or a device or named pipe
/// (`/dev/null`, a terminal, a FIFO) that bytes are written into in place — renaming over one would put a
/// regular file where the device was.
enum OutputPlace: Equatable {
    case absent, regularFile, directory, device

    /// What `path` names now, following links.
    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .absent
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        default: self = .device
        }
    }

    /// Refuses what cannot be written without `--force`, or at all, in the user's words.
    static func check(_ path: String, force: Bool) throws {
        switch OutputPlace(path) {
        case .absent, .device: return
        case .directory: throw CommandFailure("\(path) is a directory: name a file to write")
        case .regularFile:
            if !force { throw CommandFailure("\(path) already exists: choose another path or pass --force to replace it") }
        }
    }
}
