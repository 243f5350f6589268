import Crypto
import Foundation
import Synchronization
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import Testing

/// A group's title passed on by members (docs/CLIENT.md §8.1): a newcomer gets it while the creator is away, and a
/// member cannot rename the group for a newcomer, nor bring back an older title.
@Suite("Client: group titles passed on by members")
struct GroupTitleRelayTests {
    @Test("a newcomer gets the title from a member while the creator stays away, and sees no extra line")
    func aNewcomerGetsTheTitleWhileTheCreatorIsAway() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Climbing trip", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        try await eventually("bob learns the title with its proof") {
            _ = try await bob.sync()
            return try await kept(bob, group.id)?.title == "Climbing trip"
        }
        await ann.disconnect()

        let dave = try await harness.person("dave")
        let daveHears = dave.events()
        try await bob.groups.add("dave@example.org", to: group.id)
        _ = try await dave.groups.accept(group.id)
        try await eventually("dave learns the title from bob") {
            _ = try await dave.sync()
            return try await dave.conversations().first { $0.id == group.id }?.title == "Climbing trip"
        }
        // An application hears it too (the chat shows it at once).
        let heard = Mutex(false)
        let listening = Task {
            for await event in daveHears {
                if case .groupRenamed(group.id, "Climbing trip") = event { heard.withLock { $0 = true } }
            }
        }
        try await eventually("dave's application hears the title") { heard.withLock { $0 } }
        listening.cancel()
        #expect(await !ann.isConnected, "the creator never came back")
        // Passed on, not said: dave's conversation shows no one naming the group, and nothing waits to be checked.
        let lines = try dave.history.messages(in: group.id)
        #expect(!lines.contains { $0.kind == "group_title" || $0.kind == SignedTitle.relayKind }, "\(lines.map(\.kind))")
        #expect(try await waiting(dave).isEmpty)
        // Dave can pass it on in turn: he keeps the creator's proof.
        #expect(try await kept(dave, group.id)?.title == "Climbing trip")
        for client in [bob, dave] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("after the creator rotates its keys, members hold the title signed again and still pass it on")
    func aKeyRotationSignsTheTitlesAgain() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Book club", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        try await eventually("bob has the title") {
            _ = try await bob.sync()
            return try await kept(bob, group.id)?.title == "Book club"
        }
        let before = try #require(try await kept(bob, group.id))
        try await ann.rotateKeys(password: "correct horse ann", envelopeIterations: KeyEnvelope.minimumSealIterations)
        let newKey = await ann.identityKey
        try await eventually("bob holds a proof under ann's new key") {
            _ = try await bob.sync()
            return try await kept(bob, group.id).map { $0.proof.holds(title: "Book club", conversationID: group.id, identityKey: newKey) } == true
        }
        #expect(try await kept(bob, group.id)?.proof.version ?? 0 > before.proof.version)
        let lines = try bob.history.messages(in: group.id).filter { $0.kind == "group_title" }
        #expect(lines.count == 1, "signed again is not news: \(lines.map(\.text))")
        await ann.disconnect()

        let dave = try await harness.person("dave")
        try await bob.groups.add("dave@example.org", to: group.id)
        _ = try await dave.groups.accept(group.id)
        try await eventually("dave learns the title from bob, checked with ann's new key") {
            _ = try await dave.sync()
            return try await dave.conversations().first { $0.id == group.id }?.title == "Book club"
        }
        for client in [bob, dave] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("when the creator leaves, the heir signs the title again; a member whose record still names the old creator checks it against the server's")
    func theHeirSignsTheTitleAgain() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carl = try await harness.person("carl")
        let group = try await ann.groups.create(title: "Trip", inviting: ["carl@example.org", "bob@example.org"])
        _ = try await carl.groups.accept(group.id)
        _ = try await bob.groups.accept(group.id)
        for member in [bob, carl] {
            try await eventually("each member has ann's title") {
                _ = try await member.sync()
                return try await kept(member, group.id)?.title == "Trip"
            }
        }
        // Bob is away while ann hands the group to carl (who joined first), so his record still names ann.
        await bob.disconnect()
        try await ann.groups.leave(group.id)
        let carlsKey = await carl.identityKey
        try await eventually("carl, the heir, signs the title again") {
            _ = try await carl.sync()
            return try await kept(carl, group.id).map { $0.proof.holds(title: "Trip", conversationID: group.id, identityKey: carlsKey) } == true
        }
        try await bob.connect()
        try await eventually("bob takes carl's proof, although his record named ann when it came") {
            _ = try await bob.sync()
            return try await kept(bob, group.id).map { $0.proof.holds(title: "Trip", conversationID: group.id, identityKey: carlsKey) } == true
        }
        let carlsID = await carl.accountID
        #expect(try await bob.conversations().first { $0.id == group.id }?.creatorID == carlsID)
        let lines = try bob.history.messages(in: group.id).filter { $0.kind == "group_title" }
        #expect(lines.count == 1, "signed again is not news: \(lines.map(\.text))")
        for client in [ann, bob, carl] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a forged, altered, older or repeated copy from a member renames nothing")
    func copiesThatDoNotHoldChangeNothing() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let dave = try await harness.person("dave")
        let group = try await ann.groups.create(title: "Trip v1", inviting: ["bob@example.org", "dave@example.org"])
        _ = try await bob.groups.accept(group.id)
        try await eventually("bob has the first title") {
            _ = try await bob.sync()
            return try await kept(bob, group.id)?.title == "Trip v1"
        }
        let first = try #require(try await kept(bob, group.id))
        try await ann.groups.rename(group.id, to: "Trip v2")
        _ = try await dave.groups.accept(group.id)
        try await eventually("dave has the second title") {
            _ = try await dave.sync()
            return try await dave.conversations().first { $0.id == group.id }?.title == "Trip v2"
        }
        try await eventually("bob has the second title") {
            _ = try await bob.sync()
            return try await kept(bob, group.id)?.title == "Trip v2"
        }
        let second = try #require(try await kept(bob, group.id))
        #expect(second.proof.version > first.proof.version)

        // Bob's client turned hostile: it sends dave copies of its own making.
        let daveID = try #require(await dave.accountID)
        let bobSigner = try Curve25519.Signing.PrivateKey(rawRepresentation: await bob.keys.identitySeed)
        let copies: [(String, GroupTitleProof?)] = [
            ("Trip v1", first.proof),  // the creator's, but older
            ("Hijacked", GroupTitleProof(title: "Hijacked", conversationID: group.id, version: GroupTitleProof.maximumVersion, signingKey: bobSigner)),
            ("Trip v2 (altered)", second.proof),  // the creator's proof under another title
            ("Trip v2", second.proof),  // the same again
            ("Renamed by bob", nil),  // no proof at all: a message, as before
        ]
        for (title, proof) in copies {
            let content = MessageContent(id: UUID().uuidString, type: "group_title", text: title, titleProof: proof)
            try await bob.owner.sendPairwise(content, kind: "group_title", conversationID: group.id, toMembers: [daveID])
            // One at a time: a marker after each, so each copy is checked on its own.
            let after = try #require(try await bob.send("after \(title)", to: group.id).message)
            try await eventually("dave took in \(title)") {
                _ = try await dave.sync()
                return try dave.history.message(after.id)?.text == "after \(title)"
            }
            #expect(try await dave.conversations().first { $0.id == group.id }?.title == "Trip v2", "after \(title)")
            #expect(try await kept(dave, group.id) == second, "after \(title)")
            #expect(try await waiting(dave).isEmpty, "\(title) was checked and let go")
        }
        let shown = try dave.history.messages(in: group.id)
        #expect(shown.contains { $0.kind == "text" && $0.text == "Renamed by bob" }, "a title without a proof is only a message")
        #expect(!shown.contains { $0.text == "Hijacked" || $0.text == "Trip v2 (altered)" })
        for client in [ann, bob, dave] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func twoMembersBesidesTheCreatorPassATitleOnAndEveryoneAgreesWhich() {
        let members = Array(Int64(1)...40)
        var chosen: [Int64: Int] = [:]
        for newcomer in members where newcomer != 1 {
            let relayers = GroupTitleRelay.relayers(for: newcomer, in: 77, members: members, creator: 1)
            #expect(relayers.count == 2 && !relayers.contains(newcomer) && !relayers.contains(1))
            // The order of the member list does not change who is chosen.
            #expect(relayers == GroupTitleRelay.relayers(for: newcomer, in: 77, members: members.reversed(), creator: 1))
            for member in relayers { chosen[member, default: 0] += 1 }
        }
        #expect(chosen.count > 10, "the work is spread over the members: \(chosen)")
        // A group of the creator, one member and a newcomer: that member.
        #expect(GroupTitleRelay.relayers(for: 3, in: 5, members: [1, 2, 3], creator: 1) == [2])
        #expect(GroupTitleRelay.relayers(for: 2, in: 5, members: [1, 2], creator: 1).isEmpty)
    }

    /// The title with its creator's proof that `client` keeps for `conversationID`.
    private func kept(_ client: ParleyClient, _ conversationID: Int64) async throws -> SignedTitle? {
        let database = await client.database
        return try database.read { try SignedTitle.current(of: conversationID, in: $0) }
    }

    /// The copies passed on to `client` that wait to be checked.
    private func waiting(_ client: ParleyClient) async throws -> [(conversationID: Int64, signed: SignedTitle)] {
        let database = await client.database
        return try database.read { try SignedTitle.relayed(in: $0) }
    }
}
