import ParleyChatUI

/// A failure that is not a usage mistake: printed as "Error: …" without the usage block.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    /// Shown on a terminal, and often quoting the server or a file: controls in it are made visible.
    init(_ description: String) { self.description = TerminalText.visible(description) }
}
