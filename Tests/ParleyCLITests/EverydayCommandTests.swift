import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// What an outside probe of everyday use found (2026-11-28), as a person sees it through the binary on a default
/// server: text from standard input, the account itself among its contacts, the status of an unconfirmed account,
/// and what `rotate-keys` tells its user to do.
@Suite("parley: everyday commands as a person uses them", .serialized, .offThePool)
struct EverydayCommandTests {
    @Test func sendReadsItsTextFromStandardInputAndRefusesWhatCannotBeAMessage() async throws {
        let scene = try await CLIScene.start("stdin", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func send(_ input: Data) async throws -> ParleyBinary.BinaryResult {
            try await Blocking.run { try ParleyBinary.runBinary(["send", "--home", ann.path, "--to", "bob@example.org", "-"], stdin: input) }
        }
        // Longer than a message may be, and not text: refused with what to do instead, and nothing is sent.
        let long = try await send(Data(repeating: UInt8(ascii: "a"), count: 64 * 1024 + 1))
        #expect(long.status != 0 && long.stderr.contains("more than 64 KiB") && long.stderr.contains("--file"), "\(long.stderr)")
        // The same bound for text given as an argument (a probe sent 120,000 bytes that way).
        let argument = try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", String(repeating: "a", count: 64 * 1024 + 1)])
        #expect(argument.status != 0 && argument.stderr.contains("longer than 64 KiB") && argument.stderr.contains("--file"), "\(argument.stderr)")
        let binary = try await send(Data([0x68, 0x69, 0xff, 0xfe, 0x0a]))
        #expect(binary.status != 0 && binary.stderr.contains("not UTF-8 text"), "\(binary.stderr)")
        let blank = try await send(Data("\n\n".utf8))
        #expect(blank.status != 0 && blank.stderr.contains("empty"), "\(blank.stderr)")
        #expect(try await scene.run(["requests", "--home", bob.path]).stdout.contains("No message requests"))

        // Lines from a pipe arrive as they were, without the line break that ended them; exactly 64 KiB passes.
        let sent = try await send(Data("first line\nsecond line\n".utf8))
        #expect(sent.status == 0, "\(sent.stderr)")
        try await CLIAccounts.accept(request: 1, home: bob)
        let largest = try await send(Data(repeating: UInt8(ascii: "b"), count: 64 * 1024))
        #expect(largest.status == 0, "\(largest.stderr)")
        let read = try await scene.run(["read", "--home", bob.path, "--conversation", "1", "--json"])
        #expect(read.stdout.contains(#""first line\nsecond line""#), "\(read.stdout.prefix(400))")
        #expect(read.stdout.contains(String(repeating: "b", count: 64 * 1024)))
        // A literal "-" as text is still possible in a pipe.
        #expect(try await send(Data("-".utf8)).status == 0)
        try await scene.finish()
    }

    @Test func theAccountIsNotItsOwnContactAndAnUnconfirmedOneIsNotCalledUnreachable() async throws {
        let scene = try await CLIScene.start("self", people: ["ann", "bob"])
        let ann = scene.home("ann")
        // Looking at one's own safety number learns one's own account like anyone's.
        _ = try await scene.run(["verify", "--home", ann.path, "ann@example.org"])
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)
        let contacts = try await scene.run(["contacts", "--home", ann.path])
        #expect(contacts.stdout.contains("bob@example.org") && !contacts.stdout.contains("ann@example.org"), "\(contacts.stdout)")

        let carl = scene.root.appendingPathComponent("carl")
        let registered = try await ParleyBinary.runDetached(
            ["account", "register", "--home", carl.path, "--email", "carl@example.org", "--name", "carl",
             "--server", "127.0.0.1:\(scene.server.port)"], environment: CLIAccounts.environment)
        #expect(registered.status == 0, "\(registered.stderr)")
        let status = try await scene.run(["account", "status", "--home", carl.path])
        #expect(status.stdout.contains("not confirmed yet") && status.stdout.contains("parley account confirm CODE"), "\(status.stdout)")
        #expect(!status.stdout.contains("not reachable"), "the server was reachable; the account is only unconfirmed")
        try await scene.finish()
    }

    @Test func aContactWhoDeletedTheirAccountIsSaidSoEverywhere() async throws {
        let scene = try await CLIScene.start("deleted-contact", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hi bob"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "hi ann"]).status == 0)
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("hi ann"))
        #expect(try await run(["account", "delete", "--home", bob.path, "--yes"]).status == 0)

        // Ann's next read says it, once; the conversation's history stays; the contact is marked.
        let read = try await run(["read", "--home", ann.path])
        #expect(read.stdout.contains("] bob (bob@example.org) deleted their Parley account"), "\(read.stdout)")
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("No new messages."))
        #expect(try await run(["read", "--home", ann.path, "--conversation", "1"]).stdout.contains("hi ann"))
        #expect(try await run(["contacts", "--home", ann.path]).stdout.contains("(deleted their account)"))
        // Writing to them says why it cannot be, in words, by address and by conversation.
        let byAddress = try await run(["send", "--home", ann.path, "--to", "bob@example.org", "are you there?"])
        #expect(byAddress.status != 0 && byAddress.stderr.contains("deleted their Parley account"), "\(byAddress.stderr)")
        let byConversation = try await run(["send", "--home", ann.path, "--conversation", "1", "are you there?"])
        #expect(byConversation.status != 0 && byConversation.stderr.contains("conversation 1 is no longer on the server"), "\(byConversation.stderr)")
        #expect(!byConversation.stderr.contains("the server refused"))
        try await scene.finish()
    }

    @Test func rotatingKeysSaysWhatContactsWillSeeAndWhatToCompare() async throws {
        let scene = try await CLIScene.start("rotate-words", people: ["ann"])
        let ann = scene.home("ann")
        // Drastic and for good: without a terminal to confirm at, and without --yes, it refuses and changes nothing.
        let before = try await scene.run(["account", "status", "--home", ann.path]).stdout
        let unconfirmed = try await scene.run(["account", "rotate-keys", "--home", ann.path], environment: CLIAccounts.environment)
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("add --yes"), "\(unconfirmed.stderr)")
        #expect(try await scene.run(["account", "status", "--home", ann.path]).stdout == before, "the keys did not change")
        let rotated = try await scene.run(["account", "rotate-keys", "--home", ann.path, "--yes"], environment: CLIAccounts.environment)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.contains("new safety number") && rotated.stdout.contains("parley verify"), "\(rotated.stdout)")
        let fingerprint = try #require(rotated.stdout.split(separator: "\n").first?.split(separator: ":").dropFirst().first)
        let shown = String(fingerprint.prefix(while: { $0 != "(" })).trimmingCharacters(in: .whitespaces)
        #expect(try await scene.run(["account", "status", "--home", ann.path]).stdout.contains("identity:  \(shown)"))
        try await scene.finish()
    }
}
