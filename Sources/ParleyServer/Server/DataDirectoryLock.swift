import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The lock a running server holds on its data directory (`DATA/server.lock`, an advisory `flock`): a second
/// server on the same directory, and `parley server restore`, are refused while it is held. The kernel drops it
/// when the process ends, however it ends.
public final class DataDirectoryLock: Sendable {
    private let descriptor: Mutex<Int32?>

    /// Takes the lock, or throws `.unavailable` saying that a server is running there.
    public init(_ dataDirectory: URL) throws {
        let path = dataDirectory.appendingPathComponent("server.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.unavailable("cannot open \(path) (errno \(errno))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StoreError.unavailable("a Parley server is running with the data directory \(dataDirectory.path)")
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Lets go of the lock (a stopped server); also done when the lock is freed.
    public func release() {
        descriptor.withLock { held in
            guard let fd = held else { return }
            flock(fd, LOCK_UN)
            close(fd)
            held = nil
        }
    }

    /// Whether a server holds the lock now.
    public static func isHeld(_ dataDirectory: URL) -> Bool {
        (try? DataDirectoryLock(dataDirectory)) == nil && FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("server.lock").path)
    }

    deinit { release() }
}
