/// A failure that is not a usage mistake: printed as "Error: …" without the usage block.
public struct CommandFailure: Error, CustomStringConvertible {
    public let description: String
    /// Shown on a terminal, and often quoting the server or a file: controls in it are made visible.
    public init(_ description: String) { self.description = TerminalText.visible(description) }
}
