import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley server backup` and `restore` as an operator runs them (docs/OPERATIONS.md §10): a backup of a
/// running server, a restore refused while it runs, then done with it stopped — and what people see after.
@Suite("parley server backup, restore", .serialized, .offThePool)
struct BackupCommandTests {
    @Test func aBackupOfARunningServerIsWhatARestoredServerServes() async throws {
        let scene = try await CLIScene.start("backup", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob"), data = scene.server.dataDirectory
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "sent before the backup"]).status == 0)
        let backup = scene.root.appendingPathComponent("nightly.sqlite").path
        let made = try await run(["server", "backup", "--data", data.path, "-o", backup])
        #expect(made.status == 0 && made.stdout.contains("Backed up"), "\(made.stderr)")
        let again = try await run(["server", "backup", "--data", data.path, "-o", backup])
        #expect(again.status != 0 && again.stderr.contains("never overwrites"), "\(again.stderr)")
        #expect(try await run(["send", "--home", ann.path, "--conversation", "1", "sent after the backup"]).status == 0)

        let refused = try await run(["server", "restore", "--data", data.path, backup])
        #expect(refused.status != 0 && refused.stderr.contains("stop it first"), "\(refused.stderr)")
        let port = scene.server.port
        try await scene.server.stop()
        let restored = try await run(["server", "restore", "--data", data.path, backup])
        #expect(restored.status == 0 && restored.stdout.contains("kept as"), "\(restored.stderr)")

        // The server again, on its address, from the restored database: Bob gets what was sent before the backup.
        let server = try await EmbeddedServer.start(dataDirectory: data, port: port)
        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await run(["read", "--home", bob.path])
        #expect(read.stdout.contains("sent before the backup") && !read.stdout.contains("sent after the backup"), "\(read.stdout) \(read.stderr)")
        try await server.stop()
        try? FileManager.default.removeItem(at: scene.root)
    }
}
