import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// How far one's own messages got — sent, delivered, read — as a person sees it in `parley read --conversation`,
/// when the sender was not connected while the others fetched and read (every command here connects, does its
/// part and exits: the live notifications reach no one).
@Suite("parley: whether what I sent arrived and was read", .serialized, .offThePool)
struct DeliveryProgressCommandTests {
    @Test func aSenderWhoWasAwaySeesDeliveredThenRead() async throws {
        let scene = try await CLIScene.start("progress", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func annSees() async throws -> String {
            let history = try await scene.run(["read", "--home", ann.path, "--conversation", "1"])
            #expect(history.status == 0, "\(history.stderr)")
            return history.stdout
        }
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "Lunch at noon?"]).status == 0)
        #expect(try await annSees().contains("me: Lunch at noon?  (sent)"))
        // Accepting a request is answering what it showed: its messages are read.
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await annSees().contains("me: Lunch at noon?  (read)"))

        // Bob writes back without reading the next one: his device has it, he has not seen it.
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "Or at one?"]).status == 0)
        #expect(try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", "one sec"]).status == 0)
        var seen = try await annSees()
        #expect(seen.contains("me: Or at one?  (delivered)") && seen.contains("me: Lunch at noon?  (read)"), "\(seen)")
        #expect(seen.contains(": one sec\n"), "only one's own messages carry it: \(seen)")

        #expect(try await scene.run(["read", "--home", bob.path]).stdout.contains("Or at one?"))
        seen = try await annSees()
        #expect(seen.contains("me: Or at one?  (read)"), "\(seen)")
        // The same, for a program: who has it and who read it, by account id.
        let json = try await scene.run(["read", "--home", ann.path, "--conversation", "1", "--json"]).stdout
        let mine = try #require(json.split(separator: "\n").first { $0.contains("Or at one?") })
        #expect(mine.contains(#""delivered_to":[2]"#) && mine.contains(#""read_by":[2]"#), "\(mine)")

        // What comes after Bob read is not read.
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "Or at two?"]).status == 0)
        seen = try await annSees()
        #expect(seen.contains("me: Or at two?  (sent)") && seen.contains("me: Or at one?  (read)"), "\(seen)")
        try await scene.finish()
    }

    @Test func aGroupCountsWhoHasItAndWhoReadIt() async throws {
        let scene = try await CLIScene.start("progress-group", people: ["ann", "bob", "carl"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl")
        let created = try await scene.run(
            ["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org", "--invite", "carl@example.org"])
        #expect(created.status == 0, "\(created.stderr)")
        let group = try String(#require(created.stdout.firstMatch(of: /Created group (\d+)/)?.1, "\(created.stdout)"))
        for home in [bob, carl] { #expect(try await scene.run(["group", "accept", "--home", home.path, group]).status == 0) }
        #expect(try await scene.run(["send", "--home", ann.path, "--conversation", group, "Tents?"]).status == 0)
        // Both fetch it (a send syncs first); only Bob reads it.
        for home in [bob, carl] { #expect(try await scene.run(["send", "--home", home.path, "--conversation", group, "ok"]).status == 0) }
        var seen = try await scene.run(["read", "--home", ann.path, "--conversation", group]).stdout
        #expect(seen.contains("me: Tents?  (delivered to 2)"), "\(seen)")
        _ = try await scene.run(["read", "--home", bob.path])
        seen = try await scene.run(["read", "--home", ann.path, "--conversation", group]).stdout
        #expect(seen.contains("me: Tents?  (read)"), "one of two read it: \(seen)")
        _ = try await scene.run(["read", "--home", carl.path])
        seen = try await scene.run(["read", "--home", ann.path, "--conversation", group]).stdout
        #expect(seen.contains("me: Tents?  (read by 2)"), "\(seen)")
        try await scene.finish()
    }
}
