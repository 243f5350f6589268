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

/// What an output path names before anything is written: nothing yet, a regular file (replaced only with
/// `--force`, through a temporary file and a rename), a directory (refused), or a device or named pipe
/// (`/dev/null`, a terminal, a FIFO) that bytes are written into in place — renaming over one would put a
/// regular file where the device was.
public enum OutputPlace: Equatable, Sendable {
    /// Nothing is at the path yet.
    case absent
    /// A regular file, replaced only when forced.
    case regularFile
    /// A directory: never an output.
    case directory
    /// A device, named pipe or socket: written in place.
    case device

    /// What `path` names now, following links.
    public init(_ path: String) {
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

    /// Refuses what cannot be written without `force` (`--force`), or at all, in the user's words.
    public static func check(_ path: String, force: Bool) throws(FilePathError) {
        switch OutputPlace(path) {
        case .absent, .device: return
        case .directory: throw FilePathError("\(path) is a directory: name a file to write")
        case .regularFile:
            if !force { throw FilePathError("\(path) already exists: choose another path or pass --force to replace it") }
        }
    }
}
