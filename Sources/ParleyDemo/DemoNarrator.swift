import Foundation
import ParleyCrypto

/// Prints the tour: numbered chapters, what happened, and ciphertext beside plaintext.
public struct DemoNarrator: Sendable {
    private let isTerminal = isatty(STDOUT_FILENO) == 1

    /// A narrator writing to standard output (in bold where it is a terminal).
    public init() {}

    func chapter(_ number: Int, _ title: String) {
        let heading = "\(number). \(title)"
        emit("")
        emit(bold("── \(heading) " + String(repeating: "─", count: max(4, 68 - heading.count))))
    }

    func say(_ text: String) {
        emit("   \(text)")
    }

    /// Which ciphertext of a message the server holds when the tour looks.
    enum Stored {
        /// The reader's envelope, not yet delivered.
        case envelope([UInt8])
        /// No ciphertext left.
        case nothing
    }

    /// "server stored …" beside "NAME sees …".
    func compare(stored: Stored, viewer: String, sees: String) {
        emit("   server stored: \(dim(Self.preview(stored)))")
        emit("   \(viewer) sees:\(String(repeating: " ", count: max(1, 10 - viewer.count)))\(bold("“\(sees)”"))")
    }

    func ok(_ text: String) {
        emit("   \(isTerminal ? "\u{1B}[32m✔\u{1B}[0m" : "✔") \(text)")
    }

    /// Writes a line at once (unbuffered), so narration and errors appear in the order they happen.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func preview(_ stored: Stored) -> String {
        switch stored {
        case .envelope(let bytes): return "\(hex(bytes))… (\(bytes.count) bytes of ciphertext)"
        case .nothing: return "nothing any more: delivered, and deleted at once"
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        Hex.lower(bytes.prefix(24))
    }

    private func bold(_ text: String) -> String { isTerminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    private func dim(_ text: String) -> String { isTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}
