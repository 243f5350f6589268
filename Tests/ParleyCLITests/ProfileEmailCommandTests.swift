import Foundation
import ParleyTestSupport
import Testing

/// A profile's `email` field cannot make one person pass for another (found by an outside probe: eve set her field to
/// bob's address, and carl's contacts, ann's member list and both their key-change warnings named the real bob).
@Suite("the profile's e-mail field", .serialized, .offThePool)
struct ProfileEmailCommandTests {
    @Test func nobodyShowsAnotherPersonsAddress() async throws {
        let scene = try await CLIScene.start("profile-email", people: ["ann", "bob", "eve"])
        let ann = scene.home("ann"), bob = scene.home("bob"), eve = scene.home("eve")
        let sent = try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "hi, bob here"])
        #expect(sent.status == 0, "\(sent.stderr)")
        try await CLIAccounts.accept(request: 1, home: ann)

        // Eve names herself Bob and claims his address: refused, in the person's words, and nothing changes.
        let claim = try await ParleyBinary.runDetached(
            ["profile", "set", "--home", eve.path, "--name", "Bob", "--field", "email=bob@example.org:everyone"])
        #expect(claim.status == 1, "\(claim.stdout)")
        #expect(claim.stderr.contains("the e-mail address must be the address this account registered with, eve@example.org"), "\(claim.stderr)")
        #expect(!claim.stderr.contains("field '"), "\(claim.stderr)")
        let seen = try await ParleyBinary.runDetached(["profile", "show", "--home", ann.path, "3"])
        #expect(seen.stdout.contains("account 3:") && !seen.stdout.contains("Bob") && !seen.stdout.contains("bob@example.org"), "\(seen.stdout)")

        // Eve writes to ann anyway: ann's contacts and conversations keep bob's address with bob, trust unchanged.
        #expect(try await ParleyBinary.runDetached(["send", "--home", eve.path, "--to", "ann@example.org", "new number, it's bob"]).status == 0)
        let requests = try await ParleyBinary.runDetached(["requests", "--home", ann.path])
        #expect(!requests.stdout.contains("changed") && !requests.stderr.contains("changed"), "\(requests.stdout)\(requests.stderr)")
        let contacts = try await ParleyBinary.runDetached(["contacts", "--home", ann.path])
        #expect(!contacts.stdout.contains("replaced"), "\(contacts.stdout)")
        #expect(!contacts.stdout.split(separator: "\n").contains { $0.hasPrefix("3\t") && $0.contains("bob@example.org") }, "\(contacts.stdout)")

        // Her own address is what the field shows, to whom she chooses.
        let own = try await ParleyBinary.runDetached(["profile", "set", "--home", eve.path, "--field", "email=Eve@Example.org:everyone"])
        #expect(own.status == 0, "\(own.stderr)")
        let shown = try await ParleyBinary.runDetached(["profile", "show", "--home", ann.path, "3"])
        #expect(shown.stdout.contains("email: eve@example.org"), "\(shown.stdout)")
        try await scene.finish()
    }
}
