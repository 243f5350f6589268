#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints progress of a long operation on standard error, only when a person is watching a terminal.
public final class ProgressReporter {
    private let verb: String
    private let total: UInt64?
    private var nextReport: UInt64 = 0
    private let step: UInt64 = 32 << 20
    private var printed = false

    /// Reports nothing unless standard error is a terminal and the input is large or of unknown size.
    public static func make(verb: String, total: UInt64?) -> ((UInt64) -> Void)? {
        guard isatty(STDERR_FILENO) == 1, (total ?? .max) >= 64 << 20 else { return nil }
        let reporter = ProgressReporter(verb: verb, total: total)
        return { reporter.update($0) }
    }

    private init(verb: String, total: UInt64?) {
        self.verb = verb
        self.total = total
    }

    deinit {
        if printed { StandardStreams.err("\n") }
    }

    private func update(_ done: UInt64) {
        guard done >= nextReport else { return }
        nextReport = done + step
        var line = "\r\(verb) \(done >> 20) MiB"
        if let total, total > 0 { line += " of \(total >> 20) MiB (\(done * 100 / total)%)" }
        StandardStreams.err(line)
        printed = true
    }
}
