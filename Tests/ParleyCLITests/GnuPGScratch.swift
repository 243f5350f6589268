import Foundation
import ParleyTestSupport

/// A test's scratch directory whose `gnupg` subdirectory may be a GnuPG home: when the test is done,
/// the gpg-agent that gpg started there is stopped (it outlives gpg otherwise), then the directory goes.
final class GnuPGScratch: Sendable {
    private let directory: TemporaryDirectory

    var url: URL { directory.url }

    /// Creates `PREFIX-UUID` under the temporary directory (mode 0700).
    init(_ prefix: String) throws {
        directory = try TemporaryDirectory(prefix)
    }

    // The agent is stopped here, before `directory` is released and removes its home.
    deinit {
        let home = url.appendingPathComponent("gnupg").path
        guard FileManager.default.fileExists(atPath: home) else { return }
        let kill = Process()
        kill.executableURL = URL(fileURLWithPath: "/usr/bin/gpgconf")
        kill.arguments = ["--homedir", home, "--kill", "all"]
        kill.standardOutput = FileHandle.nullDevice
        kill.standardError = FileHandle.nullDevice
        if (try? kill.run()) != nil { kill.waitUntilExit() }
    }
}
