import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket's path short enough for `sockaddr_un` (108 bytes on Linux), whatever the length of its
/// directory's path: a long one is reached through `/proc/self/fd/N/`, a descriptor of the directory held
/// open while `body` binds or connects.
enum UnixSocketPath {
    /// Longest path used as it is (the system's limit, less room for its terminating zero).
    static let longestDirect = 100

    static func withShortPath<T>(_ path: String, _ body: (String) async throws -> T) async throws -> T {
        guard path.utf8.count > longestDirect else { return try await body(path) }
        let url = URL(fileURLWithPath: path)
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return try await body(path) }
        defer { close(directory) }
        return try await body("/proc/self/fd/\(directory)/\(url.lastPathComponent)")
    }
}
