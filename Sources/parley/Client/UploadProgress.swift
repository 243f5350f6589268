import Foundation
import ParleyChatUI
import Synchronization

/// An upload's progress on standard error: at a terminal one line rewritten in place; into a file or a pipe
/// one line per tenth of the file, so the log of a 20 MiB upload holds ten lines rather than eight hundred.
final class UploadProgress: Sendable {
    private let name: String
    private let terminal = isatty(STDERR_FILENO) == 1
    private let lastTenth = Mutex(-1)

    init(name: String) { self.name = name }

    func report(done: Int64, total: Int64) {
        let percent = Int(done * 100 / max(1, total))
        let text = "uploading \(name): \(FileLabel.size(done)) of \(FileLabel.size(total)) (\(percent)%)"
        if terminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + TerminalText.visible(text, singleLine: true) + (done >= total ? "\n" : "")).utf8))
            return
        }
        let tenth = percent / 10
        guard lastTenth.withLock({ last in
            guard tenth > last else { return false }
            last = tenth
            return true
        }) else { return }
        Console.err(text)
    }

    /// A line of its own (a resumption), ending an in-place line first.
    func say(_ text: String) {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
        Console.err(text)
    }
}
