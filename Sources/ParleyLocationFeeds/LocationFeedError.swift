/// Why a gpsd or tracker-server exchange failed, in the user's words (what happened, what to check).
///
/// The command line shows it as it shows its own failures: its description, with any control characters made
/// visible (the text can quote a server's answer).
public struct LocationFeedError: Error, CustomStringConvertible {
    /// What happened and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
