import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// The server's quota of undelivered messages (docs/API.md §6) as a person meets it through `parley`: the refusal
/// says what happened in plain words, nothing refused arrives, and the same message goes once the contact has read.
@Suite("parley send against the undelivered-messages quota", .serialized, .offThePool)
struct UndeliveredQuotaCommandTests {
    @Test func aRefusedMessageSaysWhyAndGoesOnceTheContactHasRead() async throws {
        // A test of this limit: 8,000 bytes instead of 1 GiB.
        let scene = try await CLIScene.start("undelivered", people: ["ann", "bob"]) { $0.undeliveredQuota = 8_000 }
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        // They know each other: Bob accepts Ann's first message and reads it.
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hello bob"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("hello bob"))

        var sent: [String] = []
        var refused: ParleyBinary.Result?
        for number in 1...40 {
            let text = "note \(number) while bob is away"
            let result = try await run(["send", "--home", ann.path, "--to", "bob@example.org", text])
            if result.status != 0 {
                refused = result
                break
            }
            sent.append(text)
        }
        let refusal = try #require(refused, "forty messages never reached an 8,000-byte quota")
        #expect(refusal.stderr.contains("waiting for delivery") && refusal.stderr.contains("send it again later"), "\(refusal.stderr)")
        #expect(!refusal.stderr.contains("quota_exceeded"), "the person's words, not the API's code")
        #expect(sent.count >= 2)

        let read = try await run(["read", "--home", bob.path])
        for text in sent { #expect(read.stdout.contains(text), "\(text) missing from: \(read.stdout)") }
        let refusedText = "note \(sent.count + 1) while bob is away"
        #expect(!read.stdout.contains(refusedText), "the refused message arrived anyway")

        // Bob has read what waited: the same message goes now.
        let again = try await run(["send", "--home", ann.path, "--to", "bob@example.org", refusedText])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try await run(["read", "--home", bob.path]).stdout.contains(refusedText))
        try await scene.finish()
    }
}
