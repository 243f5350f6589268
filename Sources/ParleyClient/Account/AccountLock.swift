import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps one process at a time on an account's local data.
///
/// Ratchet and sender-key state is read, stepped and written back by the client actor; two processes doing that
/// to the same account (say `parley chat` and `parley send` side by side) would each step a chain from the same
/// state and one of them would lose messages. An exclusive `flock` on `in-use.lock` in the account directory,
/// held for the client's lifetime and released by the kernel when the process ends however it ends, rules it out.
final class AccountLock: Sendable {
    /// The lock file's name inside the account directory.
    static let fileName = "in-use.lock"
    /// The open lock file; nil once released.
    private let descriptor: Mutex<Int32?>

    /// Takes the lock, waiting up to `wait` for another process to let go.
    init(directory: URL, wait: Duration) throws(ClientError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage("cannot open \(path) (errno \(errno))") }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                let holder = Self.holder(descriptor)
                close(descriptor)
                throw .accountInUse(holder)
            }
            usleep(50_000)
        }
        self.descriptor = Mutex(descriptor)
        Self.recordHolder(descriptor)
    }

    /// The process that has the account in `directory` open ("pid command"), or nil when none has.
    static func holder(directory: URL) -> (pid: Int32, command: String)? {
        let path = directory.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A shared lock we can take means nobody holds the exclusive one.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 { flock(descriptor, LOCK_UN); return nil }
        let text = holder(descriptor)
        guard let space = text.firstIndex(of: " "), let pid = Int32(text[..<space]), pid > 1 else { return nil }
        return (pid, String(text[text.index(after: space)...]))
    }

    /// Lets go early (`ParleyClient.close()`); otherwise the lock goes with this object or the process.
    func release() {
        if let open = descriptor.withLock({ value in defer { value = nil }; return value }) { close(open) }
    }

    deinit { release() }  // closing the last descriptor releases the flock

    /// Writes "pid command" so a process that finds the account busy can say who holds it.
    private static func recordHolder(_ descriptor: Int32) {
        let command = CommandLine.arguments.prefix(2).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " ")
        let line = Array("\(getpid()) \(command)\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// What the holder wrote ("1234 parley chat"), or "unknown".
    private static func holder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "unknown" }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // Only printable text goes into an error message.
        return text.isEmpty || text.unicodeScalars.contains(where: { $0.value < 0x20 }) ? "unknown" : text
    }
}
