import Foundation
import Synchronization
import ParleyTerminal

/// An upload's progress on standard error: at a terminal one line rewritten in place; into a file or a pipe
/// one line per tenth of the file, so the log of a 20 MiB upload holds ten lines rather than eight hundred.
/// The client counts encrypted bytes (each piece carries a tag and the file its header); the person knows the file's
/// own size, so the counts are shown in the file's bytes when that is known: "38.1 MiB of 38.1 MiB", not "38.2 MiB".
public final class UploadProgress: Sendable {
    private let name: String
    private let fileSize: Int64?
    private let terminal = isatty(STDERR_FILENO) == 1
    private let lastTenth = Mutex(-1)

    /// Progress of uploading the file `name`, of `fileSize` bytes when known.
    public init(name: String, fileSize: Int64? = nil) {
        self.name = name
        self.fileSize = fileSize
    }

    /// `encrypted` bytes of `total` in the file's own bytes (the same fraction of its size), when its size is known.
    public func inFileBytes(_ encrypted: Int64, of total: Int64) -> Int64 {
        guard let fileSize, total > 0 else { return encrypted }
        return encrypted >= total ? fileSize : Int64((Double(encrypted) / Double(total) * Double(fileSize)).rounded(.down))
    }

    /// Reports `done` of `total` encrypted bytes sent.
    public func report(done: Int64, total: Int64) {
        let percent = Int(done * 100 / max(1, total))
        let text = "uploading \(name): \(FileLabel.size(inFileBytes(done, of: total))) of \(FileLabel.size(inFileBytes(total, of: total))) (\(percent)%)"
        if terminal {
            StandardStreams.err("\r\u{1B}[K" + TerminalText.visible(text, singleLine: true) + (done >= total ? "\n" : ""))
            return
        }
        let tenth = percent / 10
        guard lastTenth.withLock({ last in
            guard tenth > last else { return false }
            last = tenth
            return true
        }) else { return }
        Self.line(text)
    }

    /// A line of its own (a resumption), ending an in-place line first.
    public func say(_ text: String) {
        if terminal { StandardStreams.err("\n") }
        Self.line(text)
    }

    /// `text` as a line of its own on standard error, controls made visible, after whatever was buffered.
    private static func line(_ text: String) {
        fflush(nil)
        StandardStreams.err(TerminalText.visible(text) + "\n")
    }
}
