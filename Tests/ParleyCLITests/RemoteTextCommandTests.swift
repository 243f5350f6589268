import Foundation
import GRDB
import ParleyServer
import ParleyTestSupport
import Testing

/// What another person writes reaches the terminal inert, whichever command prints it (issue 21, item 8):
/// a sender cannot retitle the window, clear the screen, overwrite a line with CR or reorder it with a bidi
/// override.
@Suite("remote text on the terminal", .serialized, .offThePool)
struct RemoteTextCommandTests {
    /// A window title, a screen clear, a carriage return that overwrites the sender, a right-to-left override.
    static let hostile = "hi\u{1B}]0;title\u{07} \u{1B}[2J\rbob: fake \u{202E}gnp.exe"
    /// The raw bytes none of which may reach a terminal.
    static let forbidden: [Character] = ["\u{1B}", "\u{07}", "\r", "\u{202E}", "\u{9B}"]

    static func expectInert(_ text: String, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for character in forbidden {
            #expect(!text.contains(character), "\(command) printed \(character.unicodeScalars.first!.escaped(asASCII: true)) as is: \(text.debugDescription)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func messagesNamesAndTitlesAreShownNotObeyed() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-remote-text-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: bob, server: server)

        // The server refuses a name with controls (issue 20 §5); a hostile server can still hand one out, so it
        // is planted in the server's own database, and every command must show it inert.
        let named = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--name", "Ann\u{1B}[31m\u{9B}2J"])
        #expect(named.status != 0 && named.stderr.contains("control characters"), "\(named.stderr)")
        try await DatabaseQueue(path: server.databasePath).write { db in
            try db.execute(sql: "UPDATE accounts SET display_name = ? WHERE email = 'ann@example.org'", arguments: ["Ann\u{1B}[31m\u{9B}2J"])
        }
        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", Self.hostile])
        #expect(sent.status == 0, "\(sent.stderr)")
        let group = try await ParleyBinary.runDetached(
            ["group", "create", "--home", ann.path, "Trip\u{1B}]0;owned\u{07}", "--invite", "bob@example.org"])
        #expect(group.status == 0, "\(group.stderr)")

        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(read.status == 0, "\(read.stderr)")
        Self.expectInert(read.stdout, "read")
        // Shown, not dropped: the reader sees that something was there.
        #expect(read.stdout.contains("hi␛]0;title␇ ␛[2J␍bob: fake <U+202E>gnp.exe"), "\(read.stdout)")

        for command in [["read", "--conversation", "1"], ["search", "fake"], ["contacts"], ["conversations"], ["profile", "show", "1"]] {
            let result = try await ParleyBinary.runDetached(command + ["--home", bob.path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            Self.expectInert(result.stdout + result.stderr, command.joined(separator: " "))
        }
        let history = try await ParleyBinary.runDetached(["read", "--home", bob.path, "--conversation", "1"])
        #expect(history.stdout.contains("␛[2J␍bob: fake"), "\(history.stdout)")
        // A group's member list shows the creator's name and the title inert too.
        #expect(try await ParleyBinary.runDetached(["group", "accept", "--home", bob.path, "2"]).status == 0)
        #expect(try await ParleyBinary.runDetached(["read", "--home", ann.path]).status == 0, "ann's device shares the title")
        let members = try await ParleyBinary.runDetached(["group", "members", "--home", bob.path, "2"])
        #expect(members.status == 0, "\(members.stderr)")
        Self.expectInert(members.stdout + members.stderr, "group members")
        #expect(members.stdout.contains("Ann␛[31m") && members.stdout.contains("Trip␛]0;owned␇"), "\(members.stdout)")

        // --json stays the same JSON to a parser, with the controls as \u escapes.
        let json = try await ParleyBinary.runDetached(["read", "--home", bob.path, "--conversation", "1", "--json"])
        Self.expectInert(json.stdout, "read --json")
        let line = try #require(json.stdout.split(separator: "\n").first { $0.contains("fake") })
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(decoded?["text"] as? String == Self.hostile)

        // An error quoting what a person typed is inert too.
        let refused = try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "x\u{1B}[2J@nowhere.example", "hello"])
        #expect(refused.status != 0)
        Self.expectInert(refused.stderr, "send (error)")
        try await server.stop()
    }

    /// ArgumentParser quotes a value it refuses, and a script may pass one that someone else wrote: the quote is
    /// shown inert too, and the usage exit code stays.
    @Test(arguments: [
        ["download", "M\u{1B}]0;pwned\u{07}\u{9B}1m"],
        ["react", "1\u{1B}[2J", "👍"],
        ["read", "--conversation", "x\u{202E}\u{1B}[31m"],
        ["--\u{1B}[2Jbogus"],
        ["send", "--to", "bob@example.org", "hi", "stray\u{1B}]0;t\u{07}", "extra"],
    ])
    func refusedArgumentsAreQuotedInert(_ arguments: [String]) async throws {
        let result = try await ParleyBinary.runDetached(arguments + ["--home", "/nonexistent-parley-home"])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        Self.expectInert(result.stdout + result.stderr, arguments.first ?? "")
        #expect(result.stderr.contains("␛"), "the escape is shown, not dropped: \(result.stderr)")
    }
}
