import Foundation
import ParleyImage
import ParleyServer
import ParleyTestSupport
import Testing

/// Everything Parley writes in a home is 0600 in 0700 directories, whatever the umask (issue 21, item 15).
@Suite("home permissions", .serialized, .offThePool)
struct HomePermissionsTests {
    /// Every entry under `home` whose mode lets anyone but the owner in, as "path mode".
    static func tooOpen(in home: URL) throws -> [String] {
        var found: [String] = []
        let paths = [home.path] + (FileManager.default.subpaths(atPath: home.path) ?? []).map { home.appendingPathComponent($0).path }
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }   // a file SQLite removed meanwhile
            let mode = info.st_mode & 0o777
            let isDirectory = info.st_mode & S_IFMT == S_IFDIR
            if isDirectory ? mode != 0o700 : mode & 0o077 != 0 {
                found.append("\(path.dropFirst(home.path.count)) \(String(mode, radix: 8))")
            }
        }
        return found
    }

    @Test func homesHoldOnlyPrivateFilesAfterRegisterSendReadAndDownload() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let previous = umask(0o022)   // the usual default; children inherit it
        defer { umask(previous) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: bob, server: server)
        let source = root.appendingPathComponent("notes.txt")
        try Data(repeating: 0x61, count: 40_000).write(to: source)

        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "hello"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let file = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1", "--file", source.path])
        #expect(file.status == 0, "\(file.stderr)")
        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(read.status == 0 && read.stdout.contains("hello"), "\(read.stderr)")
        let downloaded = try await ParleyBinary.runDetached(["download", "--home", bob.path, "2", "-o", root.appendingPathComponent("copy.txt").path])
        #expect(downloaded.status == 0, "\(downloaded.stderr)")
        // A picture bob fetches is cached in his home (avatars/).
        let photo = root.appendingPathComponent("ann.jpg")
        let pixels = [UInt8](repeating: 90, count: 64 * 48 * 3)
        try Data(try ImageCodec.encodeJPEG(try #require(RGBImage(width: 64, height: 48, pixels: pixels)))).write(to: photo)
        let avatar = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--avatar", photo.path])
        #expect(avatar.status == 0, "\(avatar.stderr)")
        _ = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        let fetched = try await ParleyBinary.runDetached(["profile", "avatar", "--home", bob.path, "1", "-o", root.appendingPathComponent("seen.jpg").path])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        let cache = bob.appendingPathComponent("accounts/bob@example.org/avatars")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).count == 1, "no cached picture in \(cache.path)")

        // SQLite removes -wal and -shm when the last connection closes: look while a follower holds them open.
        let follower = try LiveProcess(["read", "--home", bob.path, "--follow"])
        defer { follower.kill() }
        _ = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1", "still there?"])
        _ = try await follower.waitFor("still there\\?")
        let database = ParleyHomeLayout.database(home: bob, email: "bob@example.org")
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: database.path + suffix), "no client.sqlite\(suffix) while an account is open")
        }
        for home in [ann, bob] {
            let open = try Self.tooOpen(in: home)
            #expect(open.isEmpty, "readable by others in \(home.lastPathComponent): \(open)")
        }
        follower.kill()
        _ = await follower.exitStatus()
        try await server.stop()
    }
}

/// Where an account's files lie in a home (docs/CLIENT.md).
enum ParleyHomeLayout {
    static func database(home: URL, email: String) -> URL {
        home.appendingPathComponent("accounts").appendingPathComponent(email).appendingPathComponent("client.sqlite")
    }
}
