import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley search` shows each hit where it is, with the messages around it and how to open it full-screen;
/// `parley profile show` tells the owner who sees each field (issue 21 item 12).
@Suite("parley search in context, profile visibility", .serialized, .offThePool)
struct SearchCommandTests {
    @Test func aHitComesWithItsNeighboursAndTheWayToOpenIt() async throws {
        let scene = try await CLIScene.start("search", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }
        for text in ["first we climb", "then the plan is set", "and dinner after"] {
            #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", text]).status == 0)
        }
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("dinner"))

        let found = try await run(["search", "--home", bob.path, "plan"])
        let lines = found.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(found.stdout) \(found.stderr)")
        #expect(lines.first == "— ann (conversation 1; open it with 'parley chat --conversation 1')")
        #expect(lines.dropFirst().first?.hasPrefix("    [1#1 ") == true && lines[1].hasSuffix("ann: first we climb"))
        #expect(lines.dropFirst(2).first?.hasPrefix("  ▶ [1#2 ") == true && lines[2].hasSuffix("ann: then the plan is set"))
        #expect(lines.last?.hasSuffix("ann: and dinner after") == true)
        // The first message has nothing before it; nothing found says so.
        #expect(try await run(["search", "--home", bob.path, "climb"]).stdout.split(separator: "\n").count == 3)
        #expect(try await run(["search", "--home", bob.path, "kayak"]).stdout.contains("Nothing found."))

        // The owner sees who sees each field; someone else sees the value alone.
        #expect(try await run(["profile", "set", "--home", ann.path, "--field", "phone=+1 555 0100:contacts", "--field", "location=Lisbon:everyone"]).status == 0)
        let own = try await run(["profile", "show", "--home", ann.path])
        #expect(own.stdout.contains("  phone: +1 555 0100\t(your contacts see this)"), "\(own.stdout)")
        #expect(own.stdout.contains("  location: Lisbon\t(everyone sees this)"))
        let annID = try #require(own.stdout.firstMatch(of: /account (\d+):/).map { String($0.1) })
        let seen = try await run(["profile", "show", "--home", bob.path, annID])
        #expect(seen.stdout.contains("  phone: +1 555 0100") && !seen.stdout.contains("see this"), "\(seen.stdout)")
        try await scene.finish()
    }
}
