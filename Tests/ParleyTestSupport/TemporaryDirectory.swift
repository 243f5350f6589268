import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when the
/// last reference goes: a suite holds one per test instance, so no test leaves files behind.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates `PREFIX-UUID` (mode 0700).
    public init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
