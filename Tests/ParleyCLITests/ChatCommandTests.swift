import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// The chat commands as a user runs them: the built binary against a real server.
@Suite("parley account/send/read/… commands", .serialized, .offThePool)
struct ChatCommandTests {
    let environment = ["PARLEY_PASSWORD": "a long enough password"]

    func register(_ name: String, home: URL, server: EmbeddedServer) async throws {
        try await CLIAccounts.register(name, home: home, server: server)
    }

    @Test func twoPeopleChatFromTheCommandLine() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-chat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await register("ann", home: ann, server: server)
        try await register("bob", home: bob, server: server)

        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "Lunch at noon?"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent message 1 to conversation 1."))

        try await CLIAccounts.accept(request: 1, home: bob)
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("Lunch at noon?"))
        #expect(read.stdout.contains("[1#1 "))
        #expect(try await ParleyBinary.runDetached(["read", "--home", bob.path]).stdout.contains("No new messages."))

        let reacted = try await ParleyBinary.runDetached(["react", "--home", bob.path, "1", "❤️"])
        #expect(reacted.stdout == "Reacted ❤️.\n")
        let unicorn = try await ParleyBinary.runDetached(["react", "--home", bob.path, "1", "🦄"])
        #expect(unicorn.status == 1)
        #expect(unicorn.stderr.contains("is not a reaction; use one of"))

        let listed = try await ParleyBinary.runDetached(["conversations", "--home", ann.path, "--json"])
        #expect(listed.stdout.contains(#""kind":"direct""#))
        #expect(listed.stdout.contains(#""members":[1,2]"#))

        let history = try await ParleyBinary.runDetached(["read", "--home", ann.path, "--conversation", "1"])
        #expect(history.stdout.contains("me: Lunch at noon?"))
        #expect(history.stdout.contains("❤️1"))
        #expect(try await ParleyBinary.runDetached(["search", "--home", bob.path, "lunch"]).stdout.contains("Lunch at noon?"))
        #expect(try await ParleyBinary.runDetached(["search", "--home", bob.path, "dinner"]).stdout == "Nothing found.\n")

        let profile = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--name", "Ann A.", "--field", "phone=+1 555 0100:contacts"])
        #expect(profile.stdout == "Profile updated.\n", "\(profile.stderr)")
        let shown = try await ParleyBinary.runDetached(["profile", "show", "--home", bob.path, "1"])
        #expect(shown.stdout.contains("account 1: Ann A."))
        #expect(shown.stdout.contains("phone: +1 555 0100"))
        let contacts = try await ParleyBinary.runDetached(["contacts", "--home", bob.path])
        #expect(contacts.stdout.contains("Ann A."), "\(contacts.stdout)")
        // Mistakes in --field are said in the command's words (a probe got the top-level usage, and API field paths).
        let noEquals = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--field", "noequals"])
        #expect(noEquals.status == 1 && noEquals.stderr.contains("--field noequals: expected NAME=VALUE") && !noEquals.stderr.contains("Usage: parley <subcommand>"), "\(noEquals.stderr)")
        let colour = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--field", "color=red"])
        #expect(colour.status == 1 && colour.stderr.contains("--field color: not a profile field; the fields are email, location, phone, username"), "\(colour.stderr)")
        let long = try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--field", "location=" + String(repeating: "x", count: 257)])
        #expect(long.status == 1 && long.stderr.contains("--field location: at most 256 bytes") && !long.stderr.contains("fields."), "\(long.stderr)")
        // A zero-width space in a name is shown, not hidden, so "Ann\u{200B}" does not pass for "Ann".
        #expect(try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--name", "Ann\u{200B}"]).status == 0)
        let hidden = try await ParleyBinary.runDetached(["profile", "show", "--home", bob.path, "1"])
        #expect(hidden.stdout.contains("account 1: Ann<U+200B>"), "\(hidden.stdout)")
        #expect(try await ParleyBinary.runDetached(["profile", "set", "--home", ann.path, "--name", "Ann A."]).status == 0)

        let group = try await ParleyBinary.runDetached(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org"])
        #expect(group.stdout.contains("Created group 2 “Trip”; 1 invited."), "\(group.stderr)")
        #expect(try await ParleyBinary.runDetached(["group", "accept", "--home", bob.path, "2"]).stdout.contains("Joined group 2."))
        #expect(try await ParleyBinary.runDetached(["send", "--home", bob.path, "--conversation", "2", "count me in"]).status == 0)
        #expect(try await ParleyBinary.runDetached(["read", "--home", ann.path]).stdout.contains("count me in"))
        try await server.stop()
    }

    @Test func mistakesSayWhatToDo() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-empty-\(UUID().uuidString)")
        let noAccount = try await ParleyBinary.runDetached(["send", "--home", home.path, "--to", "x@example.org", "hi"])
        #expect(noAccount.status == 1)
        #expect(noAccount.stderr.contains("no account in"))
        #expect(noAccount.stderr.contains("parley account register"))
        // A home that is a file is said to be one, not "no account".
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-file-home-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fileHome = try await ParleyBinary.runDetached(["read", "--home", file.path])
        #expect(fileHome.status == 1 && fileHome.stderr.contains("is a file, not a directory"), "\(fileHome.stderr)")
        let both = try await ParleyBinary.runDetached(["send", "--home", home.path, "--to", "x@example.org", "--conversation", "1", "hi"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("exactly one of --to or --conversation"))
        let badServer = try await ParleyBinary.runDetached(
            ["account", "register", "--home", home.path, "--email", "a@example.org", "--name", "A", "--server", "nowhere"],
            environment: environment)
        #expect(badServer.status == 1)
        #expect(badServer.stderr.contains("is not HOST:PORT"))
        let refused = try await ParleyBinary.runDetached(
            ["account", "register", "--home", home.path, "--email", "a@example.org", "--name", "A", "--server", "127.0.0.1:1"],
            environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot reach the server"))
    }

    @Test func demoRunsToTheEnd() async throws {
        let demo = try await ParleyBinary.runDetached(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        for chapter in ["1. A server of your own", "4. A group (Sender Keys) and a member removed", "6. The server restarts; nothing is lost",
                        "tour finished"] {
            #expect(demo.stdout.contains(chapter))
        }
        #expect(demo.stdout.contains("server stored:"))
        // Every comparison shows real ciphertext, however fast the reader's device confirmed delivery (issue 21.2).
        let stored = demo.stdout.split(separator: "\n").filter { $0.contains("server stored:") }
        #expect(stored.count >= 5)
        #expect(!demo.stdout.contains("(0 bytes of ciphertext"), "\(demo.stdout)")
        #expect(demo.stdout.contains("bytes of ciphertext)"), "\(demo.stdout)")
        #expect(demo.stdout.contains("carol received nothing"))
    }
}
