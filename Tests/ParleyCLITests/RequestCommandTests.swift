import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// Message requests and the block list as a person meets them (issue 20), through the binary on a default
/// server: a stranger writes, the request waits apart, it is read and accepted; another is blocked and what
/// they send after never shows.
@Suite("parley requests, block, unblock, blocked", .serialized, .offThePool)
struct RequestCommandTests {
    @Test func aStrangersMessageWaitsAsARequestUntilAnswered() async throws {
        let scene = try await CLIScene.start("requests", people: ["ann", "bob", "mallory"])
        let ann = scene.home("ann"), bob = scene.home("bob"), mallory = scene.home("mallory")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hello bob, it's ann from the climbing club"]).status == 0)
        // Bob's ordinary views announce it without showing it.
        let read = try await run(["read", "--home", bob.path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("1 new in message request 1: see 'parley requests'"), "\(read.stdout)")
        #expect(!read.stdout.contains("climbing club"))
        let listed = try await run(["conversations", "--home", bob.path])
        #expect(listed.stdout.contains("1 message request waiting: see 'parley requests'."), "\(listed.stdout)")
        #expect(!listed.stdout.contains("\tdirect\t"))
        // The request: who, what they wrote, how to answer.
        let requests = try await run(["requests", "--home", bob.path])
        #expect(requests.stdout.contains("request 1: ann <ann@example.org> wants to talk"), "\(requests.stdout) \(requests.stderr)")
        #expect(requests.stdout.contains("climbing club"))
        #expect(requests.stdout.contains("parley requests accept|decline|block 1"))

        let accepted = try await run(["requests", "accept", "--home", bob.path, "1"])
        #expect(accepted.status == 0 && accepted.stdout.contains("Accepted: conversation 1"), "\(accepted.stderr)")
        #expect(try await run(["requests", "--home", bob.path]).stdout.contains("No message requests."))
        #expect(try await run(["conversations", "--home", bob.path]).stdout.contains("\tdirect\tann\t"))
        #expect(try await run(["read", "--home", bob.path, "--conversation", "1"]).stdout.contains("climbing club"))
        let again = try await run(["requests", "accept", "--home", bob.path, "1"])
        #expect(again.status != 0 && again.stderr.contains("no message request in this conversation"), "\(again.stderr)")

        // Mallory writes; bob blocks the request; what mallory sends next never shows, and mallory is not told.
        #expect(try await run(["send", "--home", mallory.path, "--to", "bob@example.org", "buy cheap watches"]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("message request 2"))
        let blocked = try await run(["requests", "block", "--home", bob.path, "2"])
        #expect(blocked.status == 0 && blocked.stdout.contains("Blocked mallory <mallory@example.org>"), "\(blocked.stderr)")
        let after = try await run(["send", "--home", mallory.path, "--to", "bob@example.org", "still there?"])
        #expect(after.status == 0 && after.stdout.contains("Sent message"), "\(after.stderr)")
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("No new messages."))
        #expect(try await run(["requests", "--home", bob.path]).stdout.contains("No message requests."))
        let list = try await run(["blocked", "--home", bob.path])
        #expect(list.stdout.contains("mallory (mallory@example.org)"), "\(list.stdout)")

        // Unblocked; writing to mallory himself reopens the conversation, and mallory's next message arrives.
        #expect(try await run(["unblock", "--home", bob.path, "mallory@example.org"]).status == 0)
        #expect(try await run(["blocked", "--home", bob.path]).stdout.contains("You have blocked no one."))
        #expect(try await run(["send", "--home", bob.path, "--to", "mallory@example.org", "who is this?"]).status == 0)
        #expect(try await run(["send", "--home", mallory.path, "--to", "bob@example.org", "an old friend"]).status == 0)
        let reopened = try await run(["read", "--home", bob.path])
        #expect(reopened.stdout.contains("an old friend") && !reopened.stdout.contains("still there?"), "\(reopened.stdout)")

        // Naming nobody, or yourself, or someone twice: each said as it is (a probe saw "Blocked nobody@example.org.").
        let nobody = try await run(["block", "--home", bob.path, "nobody@example.org"])
        #expect(nobody.status == 1 && nobody.stderr.contains("no one new was blocked: no Parley account has the address nobody@example.org"), "\(nobody.stderr)")
        #expect(try await run(["block", "--home", bob.path, "999"]).stderr.contains("no Parley account is 999"))
        #expect(try await run(["blocked", "--home", bob.path]).stdout.contains("You have blocked no one."))
        #expect(try await run(["unblock", "--home", bob.path, "mallory@example.org"]).stdout.contains("is not on your block list"))
        #expect(try await run(["block", "--home", bob.path, "mallory@example.org"]).stdout.contains("Blocked mallory@example.org."))
        #expect(try await run(["block", "--home", bob.path, "mallory@example.org"]).stdout.contains("mallory@example.org was already blocked."))
        #expect(try await run(["unblock", "--home", bob.path, "mallory@example.org"]).stdout.contains("Unblocked mallory@example.org"))
        let me = try await run(["block", "--home", bob.path, "bob@example.org"])
        #expect(me.status != 0 && me.stderr.contains("you cannot block yourself") && !me.stderr.contains("field"), "\(me.stderr)")
        try await scene.finish()
    }

    /// A probe found a blocked contact's messages counted unread (telling the blocker they still write) and the count
    /// impossible to clear, even after unblocking.
    @Test func aBlockedContactsMessagesAreNotCountedAndReadingTheConversationClearsWhatWasWithheld() async throws {
        let scene = try await CLIScene.start("block-unread", people: ["ann", "eve"])
        let ann = scene.home("ann"), eve = scene.home("eve")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }
        #expect(try await run(["send", "--home", ann.path, "--to", "eve@example.org", "hello eve"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: eve)
        #expect(try await run(["send", "--home", eve.path, "--to", "ann@example.org", "hi ann"]).status == 0)
        _ = try await run(["read", "--home", ann.path])
        #expect(try await run(["block", "--home", ann.path, "eve@example.org"]).status == 0)
        #expect(try await run(["send", "--home", eve.path, "--to", "ann@example.org", "are you there?"]).status == 0)
        let blocked = try await run(["conversations", "--home", ann.path])
        #expect(blocked.stdout.contains("0 unread") && !blocked.stdout.contains("1 unread"), "\(blocked.stdout)")
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("No new messages."))

        // Unblocked: what was withheld never arrives; reading the conversation leaves nothing counted.
        #expect(try await run(["unblock", "--home", ann.path, "eve@example.org"]).status == 0)
        let history = try await run(["read", "--home", ann.path, "--conversation", "1"])
        #expect(history.stdout.contains("hi ann") && !history.stdout.contains("are you there?"), "\(history.stdout)")
        let after = try await run(["conversations", "--home", ann.path])
        #expect(after.stdout.contains("0 unread"), "\(after.stdout)")
        try await scene.finish()
    }

    /// A probe found `conversations` counting a request's messages unread after the person answered it by replying,
    /// while `read` had nothing new: what `conversations` counts and what `read` shows now agree.
    @Test func answeringARequestByReplyingLeavesNothingUnread() async throws {
        let scene = try await CLIScene.start("request-reply", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }
        for text in ["m1", "m2", "m3"] {
            #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", text]).status == 0)
        }
        #expect(try await run(["requests", "--home", bob.path]).stdout.contains("m3"))
        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "r1"]).status == 0)
        let listed = try await run(["conversations", "--home", bob.path])
        #expect(listed.stdout.contains("\tdirect\tann\t2 members\t0 unread"), "\(listed.stdout)")
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("No new messages."))
        // Ann's side: bob's reply is new, and counted.
        #expect(try await run(["conversations", "--home", ann.path]).stdout.contains("\t1 unread"))
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("bob: r1"))
        try await scene.finish()
    }
}
