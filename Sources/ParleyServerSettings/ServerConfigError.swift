/// Why a configuration file cannot be used, naming the file and line and what to change; never quoting a value
/// that may be a password.
///
/// The command line shows it as it shows its own failures: its description, with any control characters made
/// visible.
public struct ServerConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
