import Foundation

/// Prints the tour: numbered chapters, what happened, and ciphertext beside plaintext.
struct DemoNarrator {
    private let isTerminal = isatty(STDOUT_FILENO) == 1

    func chapter(_ number: Int, _ title: String) {
        let heading = "\(number). \(title)"
        emit("")
        emit(bold("── \(heading) " + String(repeating: "─", count: max(4, 68 - heading.count))))
    }

    func say(_ text: String) {
        emit("   \(text)")
    }

    /// "server stored …" beside "NAME sees …".
    func compare(stored: [UInt8], viewer: String, sees: String) {
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

    static func preview(_ bytes: [UInt8]) -> String {
        let hex = bytes.prefix(24).map { String(format: "%02x", $0) }.joined()
        return "\(hex)… (\(bytes.count) bytes of ciphertext)"
    }

    private func bold(_ text: String) -> String { isTerminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    private func dim(_ text: String) -> String { isTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
}
