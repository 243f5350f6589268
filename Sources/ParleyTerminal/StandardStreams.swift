#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to standard output and standard error without Foundation's `FileHandle.write`, which traps on a
/// failed write: `parley read | head -1` closed the pipe and the process died with a backtrace. Here a reader that
/// went away ends the program as it ends any pipe's writer — quietly, by SIGPIPE — and any other failure (a full
/// disk behind a redirection) is said in words.
public enum StandardStreams {
    /// Writes all of `bytes` to `descriptor` (`STDOUT_FILENO` or `STDERR_FILENO`).
    public static func write(_ bytes: some Collection<UInt8>, to descriptor: Int32) {
        let bytes = Array(bytes)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result >= 0 {
                written += result
                continue
            }
            switch errno {
            case EINTR, EAGAIN:
                continue
            case EPIPE:
                signal(SIGPIPE, SIG_DFL)
                raise(SIGPIPE)
                exit(141)  // only if SIGPIPE is blocked
            default:
                let reason = String(cString: strerror(errno))
                if descriptor != STDERR_FILENO {
                    let line = "parley: could not write the output (\(reason))\n"
                    _ = line.utf8CString.withUnsafeBufferPointer { systemWrite(STDERR_FILENO, $0.baseAddress!, $0.count - 1) }
                }
                exit(1)
            }
        }
    }

    /// Writes `text` as UTF-8 to standard output.
    public static func out(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }

    /// Writes `text` as UTF-8 to standard error.
    public static func err(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
