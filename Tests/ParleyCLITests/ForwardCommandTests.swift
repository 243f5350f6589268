import Foundation
import ParleyTestSupport
import Testing

/// Who wrote a forwarded message is the forwarder's word: `read` says so, unless this device holds the original
/// (a probe made "[forwarded from Ann]" appear over words Ann never wrote).
@Suite("parley forward: whose words", .serialized, .offThePool)
struct ForwardCommandTests {
    @Test func theOriginalAuthorIsNamedAsTheForwardersClaimUnlessTheReaderHasTheOriginal() async throws {
        let scene = try await CLIScene.start("forward", people: ["ann", "bob", "carl"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "meet at the north gate"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await run(["send", "--home", bob.path, "--to", "carl@example.org", "hi carl"]).status == 0)
        try await CLIAccounts.accept(request: 2, home: carl)
        _ = try await run(["read", "--home", ann.path])

        // To Carl, who never saw the original: named as Bob's claim.
        let toCarl = try await run(["forward", "--home", bob.path, "1", "--conversation", "2"])
        #expect(toCarl.status == 0, "\(toCarl.stderr)")
        let carlReads = try await run(["read", "--home", carl.path])
        #expect(carlReads.stdout.contains("bob: [forwarded; bob says it is from someone (account 1)] meet at the north gate"), "\(carlReads.stdout)")
        #expect(!carlReads.stdout.contains("[forwarded from"))

        // Back to Ann, who holds the original: plainly hers.
        #expect(try await run(["forward", "--home", bob.path, "1", "--conversation", "1"]).status == 0)
        let annReads = try await run(["read", "--home", ann.path])
        #expect(annReads.stdout.contains("bob: [forwarded from me] meet at the north gate"), "\(annReads.stdout)")
        try await scene.finish()
    }
}
