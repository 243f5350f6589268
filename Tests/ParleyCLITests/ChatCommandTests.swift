import Foundation
import ParleyServer
import Testing

/// The chat commands as a user runs them: the built binary against a real server.
@Suite("parley account/send/read/… commands", .serialized)
struct ChatCommandTests {
    let environment = ["PARLEY_PASSWORD": "a long enough password"]

    func register(_ name: String, home: URL, server: EmbeddedServer) throws {
        let email = "\(name)@example.org"
        let registered = try ParleyBinary.run(
            ["account", "register", "--home", home.path, "--email", email, "--name", name, "--server", "127.0.0.1:\(server.port)"],
            environment: environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(registered.stdout.contains("parley account confirm CODE"))
        let code = try #require(server.latestCode(for: email))
        let confirmed = try ParleyBinary.run(["account", "confirm", "--home", home.path, code])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(confirmed.stdout.contains("Confirmed: \(email)"))
    }

    @Test func twoPeopleChatFromTheCommandLine() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-chat-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try register("ann", home: ann, server: server)
        try register("bob", home: bob, server: server)

        let sent = try ParleyBinary.run(["send", "--home", ann.path, "--to", "bob@example.org", "Lunch at noon?"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent message 1 to conversation 1."))

        let read = try ParleyBinary.run(["read", "--home", bob.path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("Lunch at noon?"))
        #expect(read.stdout.contains("[1#1 "))
        #expect(try ParleyBinary.run(["read", "--home", bob.path]).stdout.contains("No new messages."))

        let reacted = try ParleyBinary.run(["react", "--home", bob.path, "1", "❤️"])
        #expect(reacted.stdout == "Reacted ❤️.\n")
        let unicorn = try ParleyBinary.run(["react", "--home", bob.path, "1", "🦄"])
        #expect(unicorn.status == 1)
        #expect(unicorn.stderr.contains("is not a reaction; use one of"))

        let listed = try ParleyBinary.run(["conversations", "--home", ann.path, "--json"])
        #expect(listed.stdout.contains(#""kind":"direct""#))
        #expect(listed.stdout.contains(#""members":[1,2]"#))

        let history = try ParleyBinary.run(["read", "--home", ann.path, "--conversation", "1"])
        #expect(history.stdout.contains("me: Lunch at noon?"))
        #expect(history.stdout.contains("❤️1"))
        #expect(try ParleyBinary.run(["search", "--home", bob.path, "lunch"]).stdout.contains("Lunch at noon?"))
        #expect(try ParleyBinary.run(["search", "--home", bob.path, "dinner"]).stdout == "Nothing found.\n")

        let profile = try ParleyBinary.run(["profile", "set", "--home", ann.path, "--name", "Ann A.", "--field", "phone=+1 555 0100:contacts"])
        #expect(profile.stdout == "Profile updated.\n", "\(profile.stderr)")
        let shown = try ParleyBinary.run(["profile", "show", "--home", bob.path, "1"])
        #expect(shown.stdout.contains("account 1: Ann A."))
        #expect(shown.stdout.contains("phone: +1 555 0100"))
        let contacts = try ParleyBinary.run(["contacts", "--home", bob.path])
        #expect(contacts.stdout.contains("Ann A."), "\(contacts.stdout)")

        let group = try ParleyBinary.run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org"])
        #expect(group.stdout.contains("Created group 2 “Trip”; 1 invited."), "\(group.stderr)")
        #expect(try ParleyBinary.run(["group", "accept", "--home", bob.path, "2"]).stdout.contains("Joined group 2."))
        #expect(try ParleyBinary.run(["send", "--home", bob.path, "--conversation", "2", "count me in"]).status == 0)
        #expect(try ParleyBinary.run(["read", "--home", ann.path]).stdout.contains("count me in"))
        try await server.stop()
    }

    @Test func mistakesSayWhatToDo() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-empty-\(UUID().uuidString)")
        let noAccount = try ParleyBinary.run(["send", "--home", home.path, "--to", "x@example.org", "hi"])
        #expect(noAccount.status == 1)
        #expect(noAccount.stderr.contains("no account in"))
        #expect(noAccount.stderr.contains("parley account register"))
        let both = try ParleyBinary.run(["send", "--home", home.path, "--to", "x@example.org", "--conversation", "1", "hi"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("exactly one of --to or --conversation"))
        let badServer = try ParleyBinary.run(
            ["account", "register", "--home", home.path, "--email", "a@example.org", "--name", "A", "--server", "nowhere"],
            environment: environment)
        #expect(badServer.status == 1)
        #expect(badServer.stderr.contains("is not HOST:PORT"))
        let refused = try ParleyBinary.run(
            ["account", "register", "--home", home.path, "--email", "a@example.org", "--name", "A", "--server", "127.0.0.1:1"],
            environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot reach the server"))
    }

    @Test func demoRunsToTheEnd() throws {
        let demo = try ParleyBinary.run(["demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        for chapter in ["1. A server of your own", "4. A group (Sender Keys) and a member removed", "6. The server restarts; nothing is lost",
                        "tour finished"] {
            #expect(demo.stdout.contains(chapter))
        }
        #expect(demo.stdout.contains("server stored:"))
        #expect(demo.stdout.contains("carol received nothing"))
    }
}
