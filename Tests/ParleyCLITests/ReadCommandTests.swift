import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley read` as a person uses it between other commands (issue 21 items 3 and 4), on a default server.
@Suite("parley read: new means not shown yet, and reading marks read", .serialized, .offThePool)
struct ReadCommandTests {
    @Test func aMessageFetchedByAnotherCommandIsStillNewAndReadingMovesTheReadMark() async throws {
        let scene = try await CLIScene.start("read", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "first from bob"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: ann)
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("first from bob"))
        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "lunch at noon?"]).status == 0)
        // Ann sends before she reads: that command fetched bob's message too, but she has not seen it.
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hi bob"]).status == 0)
        let before = try await run(["conversations", "--home", ann.path])
        #expect(before.stdout.contains("1 unread"), "\(before.stdout)")
        let read = try await run(["read", "--home", ann.path])
        #expect(read.stdout.contains("lunch at noon?"), "\(read.stdout) \(read.stderr)")
        #expect(!read.stdout.contains("first from bob"), "shown before, so not new")
        #expect(!read.stdout.contains("hi bob"), "her own message is not news to her")
        // Shown once: not new any more, and read at the server (the unread count drops).
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("No new messages."))
        let after = try await run(["conversations", "--home", ann.path])
        #expect(after.stdout.contains("0 unread"), "\(after.stdout)")
        try await scene.finish()
    }

    @Test func someoneElsesConversationAndABadLimitAreSaidSo() async throws {
        let scene = try await CLIScene.start("read-other", people: ["ann", "bob", "carl"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl")
        #expect(try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", "between us"]).status == 0)
        // Carl is not in conversation 1: he is told so, not that it is empty.
        let other = try await scene.run(["read", "--home", carl.path, "--conversation", "1"])
        #expect(other.status == 1 && other.stderr.contains("there is no conversation 1 on this device"), "\(other.stdout)\(other.stderr)")
        #expect(!other.stdout.contains("No messages"))
        let huge = try await scene.run(["read", "--home", carl.path, "--conversation", "9999999999999999"])
        #expect(huge.status == 1 && huge.stderr.contains("there is no conversation"), "\(huge.stderr)")
        for limit in ["0", "-3", "10001"] {
            let refused = try await scene.run(["read", "--home", bob.path, "--conversation", "1", "--limit=\(limit)"])
            #expect(refused.status != 0 && refused.stderr.contains("--limit must be from 1 to 10000"), "\(limit): \(refused.stderr)")
        }
        #expect(try await scene.run(["read", "--home", bob.path, "--conversation", "1", "--limit", "1"]).stdout.contains("between us"))
        // A reply to a message of no conversation, or of another one: said in words, nothing sent.
        for bad in ["999999", "1"] {
            let conversation = bad == "1" ? "2" : "1"
            if bad == "1" { #expect(try await scene.run(["send", "--home", bob.path, "--to", "carl@example.org", "hi carl"]).status == 0) }
            let reply = try await scene.run(["send", "--home", bob.path, "--conversation", conversation, "--reply-to", bad, "re"])
            #expect(reply.status == 1 && reply.stderr.contains("message \(bad) is not one of conversation \(conversation) on this device"), "\(reply.stderr)")
            #expect(!reply.stderr.contains("field"), "\(reply.stderr)")
        }
        let good = try await scene.run(["send", "--home", bob.path, "--conversation", "1", "--reply-to", "1", "re: between us"])
        #expect(good.status == 0, "\(good.stderr)")
        _ = ann
        try await scene.finish()
    }

    @Test func peopleAreNamedTheSameWayEverywhere() async throws {
        let scene = try await CLIScene.start("names", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "hello"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: ann)
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("] bob: hello"))
        // Ann started nothing: the direct conversation is named after bob, not "direct".
        let listed = try await run(["conversations", "--home", ann.path])
        #expect(listed.stdout.contains("\tdirect\tbob\t"), "\(listed.stdout)")
        // Ann's own reply in her history is "me"; bob sees ann by her name, as the first time.
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("] ann: hi"))
        #expect(try await run(["read", "--home", ann.path, "--conversation", "1"]).stdout.contains("] me: hi"))
        // An error speaks the person's words: no API field names, no error codes.
        let nobody = try await run(["send", "--home", ann.path, "--to", "nobody@example.org", "hello?"])
        #expect(nobody.status != 0 && nobody.stderr.contains("nobody@example.org has no Parley account"), "\(nobody.stderr)")
        #expect(!nobody.stderr.contains("members[") && !nobody.stderr.contains("(not_found)"), "\(nobody.stderr)")
        // An invitation names who sent it.
        #expect(try await run(["group", "create", "--home", bob.path, "Trip", "--invite", "ann@example.org"]).status == 0)
        let invitations = try await run(["group", "invitations", "--home", ann.path])
        #expect(invitations.stdout.contains("an invitation from bob"), "\(invitations.stdout)")
        try await scene.finish()
    }
}
