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
        guard descriptor >= 0 else {
            throw FilePathError(errno == ENOENT ? "\(path): no such file" : "\(path): cannot be read (check its permissions)")
        }
        var info = stat()
        let size: UInt64? = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? UInt64(info.st_size) : nil
        return (FileDescriptorInput(descriptor: descriptor), size, { close(descriptor) })
    }
}
