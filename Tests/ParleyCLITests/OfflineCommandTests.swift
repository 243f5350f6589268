import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// With the server down, what the device holds still works (issue 21, item 6; docs/CLIENT.md §6): `send`
/// queues in the outbox and says so, `conversations` and `read --conversation` show the local history, and
/// errors speak of the server, not of sockets.
@Suite("offline commands", .serialized, .offThePool)
struct OfflineCommandTests {
    @Test func sendQueuesAndReadingWorksWhileTheServerIsDown() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("server")
        let server = try await EmbeddedServer.start(dataDirectory: data)
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: bob, server: server)
        let first = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "before the outage"])
        #expect(first.status == 0, "\(first.stderr)")
        try await server.stop()

        let queued = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "while it was down"])
        #expect(queued.status == 0, "\(queued.stderr)")
        #expect(queued.stdout.contains("Queued: will be sent when the server is reachable"), "\(queued.stdout)")
        #expect(queued.stderr.contains("Offline: cannot reach the server"), "\(queued.stderr)")
        let byID = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--conversation", "1", "and this too"])
        #expect(byID.status == 0 && byID.stdout.contains("Queued:"), "\(byID.stderr)")
        let stranger = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "carol@example.org", "hi"])
        #expect(stranger.status == 1 && stranger.stderr.contains("nothing was queued"), "\(stranger.stderr)")

        let list = try await ParleyBinary.runDetached(["conversations", "--home", ann.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.hasPrefix("1\tdirect"), "\(list.stdout)")
        #expect(list.stderr.contains("Offline: ") && list.stderr.contains("Showing what this device holds"), "\(list.stderr)")
        let history = try await ParleyBinary.runDetached(["read", "--home", ann.path, "--conversation", "1"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("before the outage"), "\(history.stdout)")
        let new = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(new.status == 0 && new.stderr.contains("No new messages can be fetched"), "\(new.stderr)")
        #expect(!new.stdout.contains("No new messages"), "offline is not the same as nothing new")

        // What needs the server says so in words, never a socket library's error.
        let react = try await ParleyBinary.runDetached(["react", "--home", ann.path, "1", "👍"])
        #expect(react.status == 1 && react.stderr.contains("cannot reach the server"), "\(react.stderr)")
        for output in [queued.stderr, list.stderr, history.stderr, new.stderr, react.stderr] {
            #expect(!output.contains("SingleConnectionFailure") && !output.contains("errno") && !output.contains("NIO"), "\(output)")
        }

        // Following waits for the server instead of ending, and shows what arrives once it is back.
        let follower = try LiveProcess(["read", "--home", bob.path, "--follow"])
        defer { follower.kill() }
        _ = try await follower.waitFor("Waiting for the server")

        // Back up: the next command that connects sends the outbox, and bob's follower shows both, in order.
        let restarted = try await EmbeddedServer.start(dataDirectory: data, port: server.port)
        let online = try await ParleyBinary.runDetached(["conversations", "--home", ann.path])
        #expect(online.status == 0 && !online.stderr.contains("Offline"), "\(online.stderr)")
        _ = try await follower.waitFor("and this too", seconds: 30)
        let followed = follower.text
        #expect(followed.contains("Offline: cannot reach the server"), "\(followed)")
        let down = followed.range(of: "while it was down"), too = followed.range(of: "and this too")
        #expect(down != nil && too != nil && down!.lowerBound < too!.lowerBound, "\(followed)")
        follower.kill()
        _ = await follower.exitStatus()
        try await restarted.stop()
    }
}
