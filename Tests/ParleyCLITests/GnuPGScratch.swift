import Foundation

/// A test's scratch directory whose `gnupg` subdirectory may be a GnuPG home: when the test is done,
/// the gpg-agent that gpg started there is stopped (it outlives gpg otherwise), then everything is removed.
final class GnuPGScratch: Sendable {
    let url: URL

    /// Creates `PREFIX-UUID` under the temporary directory (mode 0700).
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        let home = url.appendingPathComponent("gnupg").path
        if FileManager.default.fileExists(atPath: home) {
            let kill = Process()
            kill.executableURL = URL(fileURLWithPath: "/usr/bin/gpgconf")
            kill.arguments = ["--homedir", home, "--kill", "all"]
            kill.standardOutput = FileHandle.nullDevice
            kill.standardError = FileHandle.nullDevice
            if (try? kill.run()) != nil { kill.waitUntilExit() }
        }
        try? FileManager.default.removeItem(at: url)
    }
}
