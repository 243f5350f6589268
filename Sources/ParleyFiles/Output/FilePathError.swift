/// Why a path given for input or output could not be used, in the user's words (what to check or pass next).
///
/// It names the path and never the content. The command line shows it as its own failures, with any control
/// characters in the path made visible.
public struct FilePathError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
