import Crypto
import Foundation
import GRDB
@testable import ParleyClient
import ParleyClientFormats
import ParleyProtocol
import Testing

/// docs/CLIENT.md §2.1: a message that cannot be read changes no session; the device asks for it with a signed
/// retry request and the sender sends it again. The server plays the hostile party by editing its own database.
@Suite("Client: sessions survive a hostile server")
struct SessionResetTests {
    @Test("a device that lost its session asks; the sender re-sends on a fresh session; nothing is lost or doubled")
    func lostSessionIsRecovered() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let first = try #require(try await ann.send("one", to: chat.id).message)
        try await eventually("bob reads one") { try bob.history.message(first.id)?.text == "one" }
        let ack = try #require(try await bob.send("ack", to: chat.id).message)   // ann's next message is a plain ratchet message
        try await eventually("ann reads ack") { try ann.history.message(ack.id)?.text == "ack" }

        // Bob loses his session with ann (a restored backup, a bug) while he is away; ann sends three more.
        await bob.disconnect()
        let annID = try #require(await ann.accountID)
        try await bob.forgetSession(with: annID, device: 1)
        var sent: [Message] = []
        for text in ["two", "three", "four"] { sent.append(try #require(try await ann.send(text, to: chat.id).message)) }

        // Back online he cannot read them, asks, and each arrives under its own id, exactly once.
        try await bob.connect()
        let bobID = try #require(await bob.accountID)
        for (message, text) in zip(sent, ["two", "three", "four"]) {
            try await eventually("bob reads \(text) after the re-send") { try bob.history.message(message.id)?.text == text }
            #expect(try bob.history.message(message.id)?.undecryptable == false)
            // Ann's tick for bob follows the re-send's delivery (the unreadable first copy does not count).
            try await eventually("ann sees \(text) delivered") { try ann.history.message(message.id)?.deliveredTo.contains(bobID) == true }
            #expect(try ann.sentLog.originalOfResend(message.id) == nil)
        }
        let later = try #require(try await ann.send("five", to: chat.id).message)
        try await eventually("bob reads five") { try bob.history.message(later.id)?.text == "five" }
        let reply = try #require(try await bob.send("got them", to: chat.id).message)
        try await eventually("ann reads bob's reply") { try ann.history.message(reply.id)?.text == "got them" }
        let texts = try bob.history.messages(in: chat.id).map(\.text)
        #expect(texts == ["one", "ack", "two", "three", "four", "five", "got them"], "\(texts)")
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("flipped bits, a duplicate, a replay, an injected message and reordering: every real message is read once, no session is lost")
    func hostileServer() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let hello = try #require(try await ann.send("hello", to: chat.id).message)
        try await eventually("bob reads hello") { try bob.history.message(hello.id)?.text == "hello" }
        let ack = try #require(try await bob.send("hi", to: chat.id).message)
        try await eventually("ann reads hi") { try ann.history.message(ack.id)?.text == "hi" }
        let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID)
        let sessionsBefore = try await bob.sessionStateCount(with: annID, device: 1)
        let server = try DatabaseQueue(path: harness.server.databasePath, configuration: Self.patientConfiguration)
        await bob.disconnect()
        var sent: [Message] = []
        for text in ["m1", "m2", "m3", "m4", "m5"] { sent.append(try #require(try await ann.send(text, to: chat.id).message)) }
        let ids = sent.map(\.id)
        // The server keeps m1's ciphertext, to deliver it once more after bob confirmed it.
        let m1Copy = try await server.read { db in
            try Data.fetchOne(db, sql: "SELECT ciphertext FROM envelopes WHERE message_id = ? AND account_id = ?", arguments: [ids[0], bobID])
        }
        try await server.write { db in
            // A flipped bit in m2.
            var tampered = try #require(try Data.fetchOne(db, sql: "SELECT ciphertext FROM envelopes WHERE message_id = ? AND account_id = ?",
                                                          arguments: [ids[1], bobID]))
            tampered[tampered.count - 5] ^= 0x10
            try db.execute(sql: "UPDATE envelopes SET ciphertext = ? WHERE message_id = ? AND account_id = ?", arguments: [tampered, ids[1], bobID])
            // m3 replayed as a new message, and a message ann never sent.
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(created_at) FROM messages") ?? 0
            let m3 = try #require(try Data.fetchOne(db, sql: "SELECT ciphertext FROM envelopes WHERE message_id = ? AND account_id = ?",
                                                    arguments: [ids[2], bobID]))
            let forged = Data([1, 1] + m3.prefix(42) + (0..<200).map { _ in UInt8.random(in: 0...255) })
            for (index, bytes) in [m3, forged].enumerated() {
                try db.execute(sql: """
                    INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind)
                    VALUES (?, ?, 1, ?, ?, 'text')
                    """, arguments: [chat.id, annID, "hostile-\(index)", last + 1 + Int64(index)])
                try db.execute(sql: "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext) VALUES (?, ?, 1, ?)",
                               arguments: [db.lastInsertedRowID, bobID, bytes])
            }
            // m5 delivered before m4.
            let m4Time = try #require(try Int64.fetchOne(db, sql: "SELECT created_at FROM messages WHERE id = ?", arguments: [ids[3]]))
            let m5Time = try #require(try Int64.fetchOne(db, sql: "SELECT created_at FROM messages WHERE id = ?", arguments: [ids[4]]))
            try db.execute(sql: "UPDATE messages SET created_at = -1 WHERE id = ?", arguments: [ids[3]])
            try db.execute(sql: "UPDATE messages SET created_at = ? WHERE id = ?", arguments: [m4Time, ids[4]])
            try db.execute(sql: "UPDATE messages SET created_at = ? WHERE id = ?", arguments: [m5Time, ids[3]])
        }
        try await bob.connect()
        for (message, text) in zip(sent, ["m1", "m2", "m3", "m4", "m5"]) {
            try await eventually("bob reads \(text)") { try bob.history.message(message.id)?.text == text }
        }
        let after = try #require(try await ann.send("after", to: chat.id).message)
        try await eventually("bob reads after") { try bob.history.message(after.id)?.text == "after" }
        let reply = try #require(try await bob.send("all here", to: chat.id).message)
        try await eventually("ann reads bob") { try ann.history.message(reply.id)?.text == "all here" }

        let shown = try bob.history.messages(in: chat.id)
        let readable = shown.filter { !$0.undecryptable }.map(\.text)
        #expect(readable == ["hello", "hi", "m1", "m2", "m3", "m5", "m4", "after", "all here"], "\(readable)")
        #expect(shown.filter(\.undecryptable).count == 2, "the replay and the forgery stay visible as unreadable, and that is all")
        #expect(try await bob.sessionStateCount(with: annID, device: 1) >= sessionsBefore, "no session was thrown away")

        // m1 delivered a second time under its own id, stamped as new so it is fetched: recognised, nothing changes.
        let m1Bytes = try #require(m1Copy)
        try await server.write { db in
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(created_at) FROM messages") ?? 0
            try db.execute(sql: "UPDATE messages SET created_at = ? WHERE id = ?", arguments: [last + 1, ids[0]])
            try db.execute(sql: "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext) VALUES (?, ?, 1, ?)",
                           arguments: [ids[0], bobID, m1Bytes])
        }
        let again = try await bob.sync()
        #expect(again.isEmpty, "a second delivery is not news")
        // (Compared by id and text: a delivery receipt for bob's own message may still come in meanwhile.)
        let history = try bob.history.messages(in: chat.id)
        #expect(history.map(\.id) == shown.map(\.id) && history.map(\.text) == shown.map(\.text), "a duplicate delivery changed the history")
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a retry request the server forged, altered or replayed makes the sender send nothing")
    func forgedRequestsAreIgnored() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let secret = try #require(try await ann.send("for bob once", to: chat.id).message)
        try await eventually("bob reads it") { try bob.history.message(secret.id)?.text == "for bob once" }
        let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID)

        // A request "from bob" signed with a key that is not bob's, and bob's genuine request altered in flight.
        let forged = RetryRequest(accountID: bobID, deviceID: 1, recipientAccountID: annID, recipientDeviceID: 1,
                                  conversationID: chat.id, created: 1, messageIDs: [secret.id], signingKey: Curve25519.Signing.PrivateKey())
        var tampered = RetryRequest(accountID: bobID, deviceID: 1, recipientAccountID: annID, recipientDeviceID: 1,
                                    conversationID: chat.id, created: 1, messageIDs: [secret.id + 1], signingKey: await bob.keys.identity.privateKey)
        tampered.messageIDs = [secret.id]
        let altered = tampered
        let server = try DatabaseQueue(path: harness.server.databasePath, configuration: Self.patientConfiguration)
        await ann.disconnect()
        try await server.write { db in
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(created_at) FROM messages") ?? 0
            for (index, request) in [forged, altered].enumerated() {
                try db.execute(sql: """
                    INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind)
                    VALUES (?, ?, 1, ?, ?, 'retry')
                    """, arguments: [chat.id, bobID, "forged-\(index)", last + 1 + Int64(index)])
                try db.execute(sql: "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext) VALUES (?, ?, 1, ?)",
                               arguments: [db.lastInsertedRowID, annID, Data(ClientEnvelope.retryRequest(request).serialized)])
            }
        }
        try await ann.connect()
        let marker = try #require(try await ann.send("marker", to: chat.id).message)
        try await eventually("bob reads the marker") { try bob.history.message(marker.id)?.text == "marker" }
        let fetched = try await bob.sync()
        #expect(fetched.isEmpty)
        let resends = try await server.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM messages WHERE kind = 'resend'") }
        #expect(resends == 0, "nothing was sent again")
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a genuine request from a member who joined later, or for a message its sender deleted, gets nothing")
    func onlyRecipientsAreSentAgain() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carl = try await harness.person("carl")
        let group = try await ann.groups.create(title: "Board", inviting: ["bob@example.org"])
        _ = try await bob.groups.accept(group.id)
        let before = try #require(try await ann.send("before carl joined: the PIN is 0451", to: group.id).message)
        try await eventually("bob reads it") { try bob.history.message(before.id)?.text != nil && bob.history.message(before.id)?.undecryptable == false }
        try await ann.groups.add("carl@example.org", to: group.id)
        _ = try await carl.groups.accept(group.id)
        let chat = try await ann.startConversation(with: "bob@example.org")
        let regretted = try #require(try await ann.send("wrong channel: swordfish", to: chat.id).message)
        try await eventually("bob reads the regretted one") { try bob.history.message(regretted.id)?.text == "wrong channel: swordfish" }
        try await ann.messageActions.delete(regretted.id)
        let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID), carlID = try #require(await carl.accountID)

        // Signed with the askers' own identity keys: the server cannot tell these from real requests, and neither can ann.
        let fromCarl = RetryRequest(accountID: carlID, deviceID: 1, recipientAccountID: annID, recipientDeviceID: 1,
                                    conversationID: group.id, created: 1, messageIDs: [before.id], signingKey: await carl.keys.identity.privateKey)
        let fromBob = RetryRequest(accountID: bobID, deviceID: 1, recipientAccountID: annID, recipientDeviceID: 1,
                                   conversationID: chat.id, created: 1, messageIDs: [regretted.id], signingKey: await bob.keys.identity.privateKey)
        await ann.disconnect()
        for (sender, request) in [(carl, fromCarl), (bob, fromBob)] {
            try await sender.sendRawDirected(.retryRequest(request), kind: RetryRequest.kind, conversationID: request.conversationID,
                                             to: try ProtocolAddress(accountId: String(annID), deviceId: 1))
        }
        try await ann.connect()
        let marker = try #require(try await ann.send("marker", to: group.id).message)
        try await eventually("carl reads the marker") { try carl.history.message(marker.id)?.text == "marker" }
        let server = try DatabaseQueue(path: harness.server.databasePath, configuration: Self.patientConfiguration)
        let requests = try await server.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM messages WHERE kind = 'retry'") }
        #expect(requests == 2, "both requests reached ann")
        let resends = try await server.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM messages WHERE kind = 'resend'") }
        #expect(resends == 0, "nothing was sent again")
        #expect(try carl.history.message(before.id) == nil, "carl never holds what was said before he joined")
        for client in [ann, bob, carl] { await client.disconnect() }
        try await harness.stop()
    }

    /// The server's database is busy with its own writer; wait for it rather than fail.
    static var patientConfiguration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return configuration
    }
}

extension ParleyClient {
    /// Sends one envelope to one device, as the client's own retry machinery does.
    func sendRawDirected(_ envelope: ClientEnvelope, kind: String, conversationID: Int64, to address: ProtocolAddress) async throws {
        try await owner.sendDirected(envelope, kind: kind, conversationID: conversationID, to: address)
    }

    /// Forgets the session with one device, as a restored backup or a bug would.
    func forgetSession(with account: Int64, device: UInt32) throws {
        let address = try ProtocolAddress(accountId: String(account), deviceId: device)
        try database.write { try $0.delete(Namespace.session, address.description) }
    }

    /// How many session states this device keeps with one device.
    func sessionStateCount(with account: Int64, device: UInt32) async throws -> Int {
        try await owner.sessionStateCount(with: account, device: device)
    }
}

extension SessionOwner {
    /// How many session states this device keeps with one device.
    func sessionStateCount(with account: Int64, device: UInt32) throws -> Int {
        try sessions.store.loadSession(for: try ProtocolAddress(accountId: String(account), deviceId: device))?.states.count ?? 0
    }
}
