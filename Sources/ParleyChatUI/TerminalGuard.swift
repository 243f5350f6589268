#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts the terminal back the way the user had it — on a normal exit, on Ctrl-C, and on a crash.
///
/// Crash paths run in signal handlers, where only async-signal-safe calls are allowed: `write(2)`,
/// `tcsetattr(3)`, `sigaction(2)`, `raise(3)`. So everything the handler needs is prepared up front
/// in plain global memory (a termios copy, a byte buffer, the previous actions), never a Swift array
/// or string. After restoring, the handler reinstalls whatever handled the signal before (the Swift
/// runtime's backtracer, or the default action) and raises it again, so a crash still reports itself.
enum TerminalGuard {
    /// What leaves the alternate screen, shows the cursor and resets colours.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// The signals that end the process abnormally.
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT]

    /// Saves the terminal's current settings and arms the exit and crash hooks.
    static func arm(saved: termios) {
        savedSettings = saved
        if restoreBytes == nil {
            let bytes = Array(restoreSequence.utf8)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            buffer.initialize(from: bytes, count: bytes.count)
            restoreBytes = buffer
            restoreCount = bytes.count
            previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(signalSlots))
            previousActions?.initialize(repeating: sigaction(), count: Int(signalSlots))
            atexit { TerminalGuard.restore() }
        }
        armed = 1
        guard let previousActions else { return }
        for number in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { caught in
                TerminalGuard.restore()
                if let previous = TerminalGuard.previousActions, caught >= 0, caught < TerminalGuard.signalSlots {
                    _ = sigaction(caught, previous + Int(caught), nil)
                }
                _ = raise(caught)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            _ = sigaction(number, &action, previousActions + Int(number))
        }
    }

    /// Restores the terminal once (later calls do nothing); safe inside a signal handler.
    static func restore() {
        guard armed == 1 else { return }
        armed = 0
        if let restoreBytes { _ = write(STDOUT_FILENO, restoreBytes, restoreCount) }
        _ = withUnsafePointer(to: &savedSettings) { tcsetattr(STDIN_FILENO, TCSAFLUSH, $0) }
    }

    /// Restores the terminal and gives the fatal signals back to their previous handlers (a clean end).
    static func disarm() {
        restore()
        guard let previousActions else { return }
        for number in fatalSignals { _ = sigaction(number, previousActions + Int(number), nil) }
    }

    /// Slots for previous actions, indexed by signal number (all fatal signals are below 32).
    private static let signalSlots: Int32 = 32

    // Signal handlers cannot take locks or allocate, so this state is plain global memory; it is written
    // only by `arm`, before any handler can run, and read (or `armed` cleared) by one restore at a time.
    nonisolated(unsafe) private static var savedSettings = termios()
    nonisolated(unsafe) private static var restoreBytes: UnsafeMutablePointer<UInt8>?
    nonisolated(unsafe) private static var restoreCount = 0
    nonisolated(unsafe) private static var previousActions: UnsafeMutablePointer<sigaction>?
    nonisolated(unsafe) private static var armed: sig_atomic_t = 0
}
