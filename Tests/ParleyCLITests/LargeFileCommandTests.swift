import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// Files well past what a default server's rate limit lets an unpaced client send — its burst of 100 requests is
/// 25 MiB in 256 KiB pieces (issue 21, item 7) — with `parley send --file` and `parley download` against a server
/// started with its default limits.
@Suite("large files on a default server", .serialized, .offThePool)
struct LargeFileCommandTests {
    @Test func thirtyMebibytesTravelBothWays() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: bob, server: server)
        var generator = SystemRandomNumberGenerator()
        let source = root.appendingPathComponent("survey.bin")
        // 30.049 MiB: "30.0 MiB" as a file, "30.1 MiB" encrypted (a 16-byte tag a piece and the header), so the
        // progress line shows which it counts.
        var bytes = [UInt8](repeating: 0, count: 31_508_952)
        for index in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.replaceSubrange(index..<index + 8, with: $0) }
        }
        try Data(bytes).write(to: source)

        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "--file", source.path])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stderr.contains("(100%)") && !sent.stderr.contains("rate_limited"), "\(sent.stderr)")
        // Into a pipe, progress is a line per tenth of the file, not one per chunk.
        let progress = sent.stderr.split(separator: "\n").filter { $0.hasPrefix("uploading ") }
        #expect((2...11).contains(progress.count), "\(progress.count) progress lines")
        // Counted in the file's own bytes, not the encrypted ones.
        #expect(progress.last?.hasSuffix("30.0 MiB of 30.0 MiB (100%)") == true, "\(progress.last ?? "")")
        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(read.stdout.contains("survey.bin (30.0 MiB"), "\(read.stdout)")
        let copy = root.appendingPathComponent("copy.bin")
        let downloaded = try await ParleyBinary.runDetached(["download", "--home", bob.path, "1", "-o", copy.path])
        #expect(downloaded.status == 0, "\(downloaded.stderr)")
        #expect(try Data(contentsOf: copy) == (try Data(contentsOf: source)))
        // Bob right away sends it back: the account's limit has room for a second transfer.
        let back = try await ParleyBinary.runDetached(["send", "--home", bob.path, "--conversation", "1", "--file", copy.path])
        #expect(back.status == 0, "\(back.stderr)")
        try await server.stop()
    }
}
