import Foundation
import GRDB
@testable import ParleyClient
import ParleyClientFormats
import Testing

@Suite("Client: groups with sender keys")
struct GroupTests {
    @Test func removedMemberCannotReadWhatFollows() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carol = try await harness.person("carol")
        let group = try await ann.groups.create(title: "Trip", inviting: ["bob@example.org", "carol@example.org"])
        _ = try await bob.groups.accept(group.id)
        _ = try await carol.groups.accept(group.id)
        try await eventually("bob learns the title") { try await bob.conversations().first { $0.id == group.id }?.title == "Trip" }

        let first = try #require(try await ann.send("hello group", to: group.id).message)
        try await eventually("bob and carol read it") {
            let b = try bob.history.message(first.id)?.text, c = try carol.history.message(first.id)?.text
            return b == "hello group" && c == "hello group"
        }
        let fromBob = try #require(try await bob.send("hi all", to: group.id).message)
        try await eventually("ann and carol read bob") {
            let a = try ann.history.message(fromBob.id)?.text, c = try carol.history.message(fromBob.id)?.text
            return a == "hi all" && c == "hi all"
        }

        let carolID = try #require(await carol.accountID)
        try await ann.groups.remove(carolID, from: group.id)
        // Bob is offline for a moment, so his envelope is still on the server (a confirmed one is dropped) when
        // carol gets hold of it below.
        await bob.disconnect()
        let secret = try #require(try await ann.send("carol is gone", to: group.id).message)
        let bobID = try #require(await bob.accountID)
        let stolen = try await DatabaseQueue(path: harness.server.databasePath).read { db in
            try Data.fetchOne(db, sql: "SELECT ciphertext FROM envelopes WHERE message_id = ? AND device_id = 1 AND account_id = ?",
                              arguments: [secret.id, bobID])
        }
        try await bob.connect()
        try await eventually("bob reads it") { try bob.history.message(secret.id)?.text == "carol is gone" }
        _ = try await carol.sync()
        #expect(try carol.history.message(secret.id) == nil)

        // Even holding bob's ciphertext, carol's sender-key state cannot open it: the chain is new.
        let envelope = try ClientEnvelope(serialized: Array(try #require(stolen)))
        guard case .group(let distribution, let body) = envelope else { Issue.record("not a group envelope"); return }
        #expect(distribution != nil, "a new chain goes with its distribution message")
        let annID = try #require(await ann.accountID)
        var opened = true
        do {
            _ = try await carol.owner.decrypt(ClientEnvelope.group(distribution: nil, message: body).serialized,
                                        conversationID: group.id, sender: annID, device: 1)
        } catch {
            opened = false
        }
        #expect(!opened, "a removed member must not open messages sent after the removal")
        for client in [ann, bob, carol] { await client.disconnect() }
        try await harness.stop()
    }

    /// The server tells every device of the account that left, and that notice can come before the leaving device's
    /// own answer: neither device then tells the person they are "no longer a member" of the group they just left.
    @Test func leavingIsNotNewsToTheAccountThatLeft() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Trip", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        let (phone, _) = try await DevicePairingClientTests.pair(bob, name: "phone", home: harness.home("bob-phone"), harness: harness)
        try await phone.connect()
        try await eventually("bob's laptop lists the group") { try await bob.conversations().contains { $0.id == group.id } }

        try await phone.groups.leave(group.id)
        // Read as stored (a refresh of its own could still find the group gone before the notice came).
        try await eventually("the laptop drops the group when it hears that bob left") { try await bob.conversationBook.stored(group.id) == nil }
        // Before, the laptop's refresh on that notice found the group gone and said "no longer a member".
        #expect(try await !bob.conversations().contains { $0.id == group.id })
        for device in [bob, phone] {
            let notices = try device.history.messages(in: group.id).filter { $0.isNotice }.map(\.text)
            #expect(!notices.contains { $0.contains("no longer a member") }, "\(notices)")
        }
        for client in [ann, bob, phone] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("the title reaches members who accept while the creator is away, and members added later; nobody else sees a repeat")
    func titleReachesEveryoneWhoJoins() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carol = try await harness.person("carol")
        let group = try await ann.groups.create(title: "Climbing trip", inviting: ["bob@example.org", "carol@example.org"])
        await ann.disconnect()
        _ = try await bob.groups.accept(group.id)
        _ = try await carol.groups.accept(group.id)
        try await ann.connect()
        for (person, name) in [(bob, "bob"), (carol, "carol")] {
            try await eventually("\(name) learns the title") {
                _ = try await person.sync()
                return try await person.conversations().first { $0.id == group.id }?.title == "Climbing trip"
            }
        }
        // Someone invited later, while the creator is online, gets it when they accept.
        let dave = try await harness.person("dave")
        try await bob.groups.add("dave@example.org", to: group.id)
        _ = try await dave.groups.accept(group.id)
        try await eventually("dave learns the title") {
            _ = try await dave.sync()
            return try await dave.conversations().first { $0.id == group.id }?.title == "Climbing trip"
        }
        // Each member got the title once: no repeated title lines for those who had it.
        let titles = try bob.history.messages(in: group.id).filter { $0.kind == "group_title" }
        #expect(titles.count <= 1, "\(titles.map(\.text))")
        // A message right after the last one joined is read by everyone.
        let hello = try #require(try await ann.send("welcome, dave", to: group.id).message)
        for (person, name) in [(bob, "bob"), (carol, "carol"), (dave, "dave")] {
            try await eventually("\(name) reads it") { try person.history.message(hello.id)?.text == "welcome, dave" }
        }
        for client in [ann, bob, carol, dave] { await client.disconnect() }
        try await harness.stop()
    }
}
