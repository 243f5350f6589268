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

/// Opens `path` for reading as a stream (`-` is standard input).
public enum StreamInput {
    /// The stream, for regular files their size (used for progress), and what closes it.
    public static func stream(_ path: String) throws(FilePathError) -> (input: ByteInput, size: UInt64?, close: () -> Void) {
        if path == "-" { return (FileDescriptorInput(descriptor: STDIN_FILENO), nil, {}) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            throw FilePathError("\(path) is a directory: name a file to read")
        }
        let size: UInt64? = (info.st_mode & S_IFMT) == S_IFREG ? UInt64(info.st_size) : nil
        return (FileDescriptorInput(descriptor: descriptor), size, { close(descriptor) })
    }

    /// Why `path` could not be opened (`error` is `open`'s errno), in the user's words.
    static func unreadable(_ path: String, _ error: Int32) -> FilePathError {
        switch error {
        case ENOENT: FilePathError("\(path): no such file")
        case EACCES, EPERM: FilePathError("\(path): cannot be read (check its permissions)")
        case ENOTDIR: FilePathError("\(path): a part of this path is a file, not a directory")
        default: FilePathError("\(path): cannot be read (\(String(cString: strerror(error))))")
        }
    }
}
