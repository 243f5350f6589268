#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command line's human-readable output goes: every line passes through `TerminalText.visible`,
/// so text from the network or a file cannot drive the terminal, whichever command prints it.
public enum Console {
    /// Writes a line to standard output at once (unbuffered), so a waiting command's output reaches a pipe.
    public static func out(_ line: String) {
        fflush(nil)  // whatever `print` buffered comes first, so output keeps its order
        StandardStreams.out(TerminalText.visible(line) + "\n")
    }

    /// Writes one line of compact JSON, its controls as `\\u` escapes (`TerminalText.jsonSafe`).
    public static func json(_ line: String) {
        fflush(nil)
        StandardStreams.out(TerminalText.jsonSafe(line) + "\n")
    }

    /// Writes a line to standard error at once.
    public static func err(_ line: String) {
        fflush(nil)
        StandardStreams.err(TerminalText.visible(line) + "\n")
    }

    /// Writes `text` to standard error with no newline (a prompt).
    public static func prompt(_ text: String) {
        fflush(nil)
        StandardStreams.err(TerminalText.visible(text))
    }
}
