import Foundation

/// Starts child processes one at a time. Foundation's `Process.run()` on Linux crashed (a bad read in its
/// `memcpy`, twice in full-suite runs where many tests launch binaries at once); launches are quick, so
/// serialising them costs nothing measurable, while the children still run side by side.
public enum ProcessLaunch {
    private static let lock = NSLock()

    public static func start(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
