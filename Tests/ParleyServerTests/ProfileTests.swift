import Foundation
@testable import ParleyServer
import Testing

@Suite("Profiles and avatars", .serialized)
struct ProfileTests {
    static var fields: [String: Any] { [
        "phone": ["value": "+1 555 0100", "visibility": "contacts"],
        "location": ["value": "Lisbon", "visibility": "everyone"],
        "email": ["value": "ann@example.org", "visibility": "nobody"],
    ] }

    @Test("the server shows each field only to whom its visibility allows")
    func visibility() async throws {
        let people = try await TwoPeople.start()
        #expect(try await people.annSocket.call("update_profile", ["display_name": "Ann A.", "fields": Self.fields]).ok)
        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)

        // A stranger sees the display name and public fields only.
        let seenByEve = try await eveSocket.call("get_profile", ["account_id": people.annID])
        #expect(seenByEve["display_name"] as? String == "Ann A.")
        #expect(seenByEve["fields"] as? [String: String] == ["location": "Lisbon"])

        // A contact also sees contacts-only fields.
        _ = try await people.directConversation()
        let seenByBob = try await people.bobSocket.call("get_profile", ["account_id": people.annID])
        #expect(seenByBob["fields"] as? [String: String] == ["location": "Lisbon", "phone": "+1 555 0100"])

        // The owner sees everything, with visibilities.
        let own = try #require(try await people.annSocket.call("get_profile")["fields"] as? [String: [String: String]])
        #expect(own["email"]?["visibility"] == "nobody")
        #expect(own.count == 3)

        // An empty value removes a field.
        #expect(try await people.annSocket.call("update_profile", ["fields": ["location": ["value": "", "visibility": "everyone"]]]).ok)
        #expect((try await eveSocket.call("get_profile", ["account_id": people.annID])["fields"] as? [String: String])?.isEmpty == true)
        try await people.server.stop()
    }

    @Test("a contact hears profile_updated when a profile changes; a stranger hears nothing, and a refused change tells no one")
    func contactsHearOfAChange() async throws {
        let people = try await TwoPeople.start()
        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)
        _ = try await people.directConversation()
        #expect(try await people.annSocket.call("update_profile", ["display_name": "  "]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("update_profile", ["display_name": "Ann L."]).ok)
        let note = try await people.bobSocket.nextNotification(named: "profile_updated")
        #expect(note["account_id"] as? Int == people.annID)
        // Exactly one: the refused change told no one.
        #expect(try await people.bobSocket.call("ping").ok)
        #expect(!people.bobSocket.notifications.contains { $0["event"] as? String == "profile_updated" })
        // Eve shares no conversation with ann: a ping's answer comes after anything sent to her before it.
        #expect(try await eveSocket.call("ping").ok)
        #expect(!eveSocket.notifications.contains { $0["event"] as? String == "profile_updated" })
        try await people.server.stop()
    }

    @Test("unknown fields, bad visibilities and oversize values are refused and change nothing")
    func validation() async throws {
        let people = try await TwoPeople.start()
        #expect(try await people.annSocket.call("update_profile", ["fields": ["shoe_size": ["value": "9", "visibility": "everyone"]]]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("update_profile", ["fields": ["phone": ["value": "1", "visibility": "friends"]]]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("update_profile", ["fields": ["phone": ["value": String(repeating: "9", count: 300), "visibility": "everyone"]]]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("update_profile", ["display_name": "  "]).errorCode == "invalid_field")
        let mixed = try await people.annSocket.call("update_profile", [
            "display_name": "Renamed", "fields": ["shoe_size": ["value": "9", "visibility": "everyone"]],
        ])
        #expect(mixed.errorCode == "invalid_field")
        #expect(try await people.annSocket.call("get_profile")["display_name"] as? String == "Ann")
        #expect((try await people.annSocket.call("get_profile")["fields"] as? [String: Any])?.isEmpty == true)
        #expect(try await people.annSocket.call("get_profile", ["account_id": 99_999]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("the e-mail field shows the account's own address and cannot name another's")
    func emailFieldIsTheAccountsOwn() async throws {
        let people = try await TwoPeople.start()
        _ = try await people.directConversation()
        // Bob claims ann's address: refused, and nothing of the request is stored.
        let claim = try await people.bobSocket.call("update_profile", [
            "display_name": "Ann", "fields": ["email": ["value": "ann@example.org", "visibility": "everyone"]],
        ])
        #expect(claim.errorCode == "invalid_field")
        #expect((claim.errorMessage ?? "").contains("bob@example.org"))
        #expect(try await people.bobSocket.call("get_profile")["display_name"] as? String == "Bob")
        #expect((try await people.annSocket.call("get_profile", ["account_id": people.bobID])["fields"] as? [String: String])?.isEmpty == true)
        // His own address, in any case and with spaces around it, is shown as the account has it.
        #expect(try await people.bobSocket.call("update_profile", ["fields": ["email": ["value": " Bob@Example.ORG ", "visibility": "contacts"]]]).ok)
        #expect(try await people.annSocket.call("get_profile", ["account_id": people.bobID])["fields"] as? [String: String] == ["email": "bob@example.org"])
        // A value stored before this rule is never served: the field shows the account's address.
        try await people.server.opened.store.setProfileFields(accountID: Int64(people.bobID), [
            ProfileField(name: "email", value: "ann@example.org", visibility: .everyone),
        ])
        #expect(try await people.annSocket.call("get_profile", ["account_id": people.bobID])["fields"] as? [String: String] == ["email": "bob@example.org"])
        try await people.server.stop()
    }

    @Test("avatars are served to contacts and the owner; group avatars to members only")
    func avatars() async throws {
        let people = try await TwoPeople.start()
        let blob = Data((0..<1000).map { UInt8($0 % 256) }).base64EncodedString()
        #expect(try await people.annSocket.call("update_avatar", ["avatar": blob]).ok)
        #expect(try await people.annSocket.call("get_avatar", ["account_id": people.annID])["avatar"] as? String == blob)
        #expect(try await people.bobSocket.call("get_avatar", ["account_id": people.annID]).errorCode == "not_found")
        _ = try await people.directConversation()
        #expect(try await people.bobSocket.call("get_avatar", ["account_id": people.annID])["avatar"] as? String == blob)
        let tooBig = Data(count: 256 * 1024 + 1).base64EncodedString()
        #expect(try await people.annSocket.call("update_avatar", ["avatar": tooBig]).errorCode == "invalid_field")

        let group = try #require(try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])["conversation_id"] as? Int)
        #expect(try await people.annSocket.call("update_group_avatar", ["conversation_id": group, "avatar": blob]).ok)
        #expect(try await people.bobSocket.call("get_group_avatar", ["conversation_id": group]).errorCode == "not_found")
        #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).ok)
        #expect(try await people.bobSocket.call("get_group_avatar", ["conversation_id": group])["avatar"] as? String == blob)
        try await people.server.stop()
    }
}
