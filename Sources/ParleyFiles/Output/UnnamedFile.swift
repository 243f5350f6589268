#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file made in a directory without a name (Linux's `O_TMPFILE`), which gets one only when it is complete.
///
/// A process killed while it writes (kill -9, a power cut) leaves nothing behind: the kernel frees a file no name
/// points to. With a named temporary file the half-written output stayed beside its destination — for a decryption,
/// part of the plaintext, which nothing ever removed (found by an outside probe: `parley download` killed at 23 MiB).
enum UnnamedFile {
    /// An unnamed file open for writing in `directory` with `mode`, or nil where this system or file system makes
    /// none (macOS; a file system without `O_TMPFILE`; no `/proc` to name it through): the caller then uses a name.
    static func open(in directory: String, mode: mode_t) -> Int32? {
        #if os(Linux)
        guard access("/proc/self/fd", X_OK) == 0 else { return nil }
        let descriptor = Glibc.open(directory.isEmpty ? "." : directory, __O_TMPFILE | O_DIRECTORY | O_WRONLY | O_CLOEXEC, mode)
        return descriptor >= 0 ? descriptor : nil
        #else
        return nil
        #endif
    }

    /// Gives the unnamed file `descriptor` the name `path`; 0, or the `errno` of the failure (`EEXIST` when `path`
    /// exists: a name is never replaced here).
    static func name(_ descriptor: Int32, _ path: String) -> Int32 {
        #if os(Linux)
        // Through /proc rather than AT_EMPTY_PATH, which needs a capability an ordinary user lacks.
        linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno
        #else
        ENOTSUP
        #endif
    }
}
