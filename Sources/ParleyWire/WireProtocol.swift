/// The version of the client/server protocol (docs/API.md §1, "Protocol version"). A client states it in `hello`
/// when it connects; a server that speaks another answers `unsupported_protocol`, naming both. It changes only
/// when a change would make one side misread the other; additions that old peers ignore do not change it.
public enum WireProtocol {
    /// The version this code speaks.
    public static let version = 1
}
