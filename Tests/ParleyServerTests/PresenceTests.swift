import Foundation
import Testing

@Suite("Presence", .serialized)
struct PresenceTests {
    func next(_ event: String, on socket: LineSocket) async throws -> [String: Any] {
        try await socket.nextNotification(named: event)
    }

    @Test("a device that logs in learns which contacts are online")
    func onlineUsers() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        let second = try people.server.connect()
        _ = try await people.server.login(people.bob, on: second)
        let online = try await next("online_users", on: second)
        #expect(online["account_ids"] as? [Int] == [people.annID])
        try await people.server.stop()
    }

    @Test("contacts hear user_offline when the last device leaves and user_online when one returns")
    func offlineThenOnline() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        people.bobSocket.disconnect()
        let offline = try await next("user_offline", on: people.annSocket)
        #expect(offline["account_id"] as? Int == people.bobID)

        let back = try people.server.connect()
        _ = try await people.server.login(people.bob, on: back)
        let online = try await next("user_online", on: people.annSocket)
        #expect(online["account_id"] as? Int == people.bobID)
        try await people.server.stop()
    }

    @Test("strangers hear nothing about each other")
    func strangers() async throws {
        let people = try await TwoPeople.start()
        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)
        let online = try await next("online_users", on: eveSocket)
        #expect((online["account_ids"] as? [Int])?.isEmpty == true)
        try await people.server.stop()
    }
}
