/// Why a key store could not find, read or keep a key, in the user's words (what to run or check next).
///
/// The command line shows it as it shows its own failures: its description, with any control characters made
/// visible (it can quote a user ID or a file name).
public struct PGPKeyStoreError: Error, CustomStringConvertible, Sendable {
    /// What happened and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
