import Foundation
@testable import ParleyServer
import Testing

/// `delete_account` and disabled accounts over real sockets, default limits (docs/API.md §3, OPERATIONS.md §8).
@Suite("Account deletion and disabled accounts", .serialized)
struct AccountDeletionTests {
    @Test("deleting her account: contacts hear it, her other connections close, she becomes an address nobody holds", arguments: StoreBackend.allCases)
    func ownerDeletes(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let server = people.server
        let conversation = try await people.directConversation()
        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "m-1", "envelopes": people.envelopesFromAnn("hello"),
        ])
        #expect(sent.ok, "\(sent)")
        let annElsewhere = try server.connect()
        #expect(try await server.login(people.ann, on: annElsewhere)["account_id"] as? Int == people.annID)
        let unknownProfile = try await people.bobSocket.call("get_profile", ["account_id": 999_999])
        let unknownPerson = try await people.bobSocket.call("create_conversation", ["kind": "direct", "members": ["zed@example.org"]])

        // Refused without the typed confirmation, or with garbage: nothing changes.
        for confirm in [nil, "bob@example.org", "", String(repeating: "a", count: 300), "ann@example.org.example"] as [Any?] {
            var fields: [String: Any] = [:]
            fields["confirm"] = confirm
            let refused = try await people.annSocket.call("delete_account", fields)
            #expect(!refused.ok, "\(String(describing: confirm)): \(refused)")
        }
        #expect(try await server.opened.store.account(id: Int64(people.annID)) != nil)
        let logOut = try server.connect()
        #expect(try await logOut.call("delete_account", ["confirm": people.ann.email]).errorCode == "unauthenticated")

        let deleted = try await people.annSocket.call("delete_account", ["confirm": "Ann@Example.org"])
        #expect(deleted.ok && deleted["deleted"] as? Bool == true, "\(deleted)")
        // Her connections close (the one that asked, once answered); her devices cannot log in again.
        while let line = try await annElsewhere.readLine() { _ = line }
        while let line = try await people.annSocket.readLine() { _ = line }
        let again = try server.connect()
        #expect(try await server.login(people.ann, on: again).errorCode == "authentication_failed")

        // Bob hears it, and afterwards she is as someone who never had an account.
        let gone = try await people.bobSocket.nextNotification(named: "conversation_deleted")
        #expect(gone["conversation_id"] as? Int == conversation && gone["reason"] as? String == "account_deleted")
        let note = try await people.bobSocket.nextNotification(named: "account_deleted")
        #expect(note["account_id"] as? Int == people.annID)
        let profile = try await people.bobSocket.call("get_profile", ["account_id": people.annID])
        #expect(profile.errorCode == unknownProfile.errorCode && profile.errorMessage == unknownProfile.errorMessage, "\(profile)")
        let create = try await people.bobSocket.call("create_conversation", ["kind": "direct", "members": [people.ann.email]])
        #expect(create.errorCode == unknownPerson.errorCode, "\(create)")
        #expect(create.errorMessage == unknownPerson.errorMessage?.replacingOccurrences(of: "zed@", with: "ann@"))
        let messages = try await people.bobSocket.call("get_messages", ["after_ts": 0])
        #expect((messages["messages"] as? [[String: Any]])?.isEmpty == true, "\(messages)")
        #expect(try await AccountTrace.leftovers(server.opened.store, accountID: Int64(people.annID), email: people.ann.email) == [:])

        // The address is free: she registers afresh, a new account.
        try await server.createAccount(people.ann, on: again)
        let fresh = try await server.login(people.ann, on: again)
        #expect(fresh["account_id"] as? Int != people.annID && fresh["account_id"] is Int, "\(fresh)")
        try await server.stop()
    }

    @Test("a disabled account's logins fail with a clear message, only to who holds its key; enabled, it logs in", arguments: StoreBackend.allCases)
    func disabledLogins(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let server = people.server
        #expect(try await server.opened.store.setDisabled(accountID: Int64(people.annID), at: server.clock.now()))
        let socket = try server.connect()
        let refused = try await server.login(people.ann, on: socket)
        #expect(refused.errorCode == "forbidden" && refused.errorMessage == "this account is disabled; ask the server's operator", "\(refused)")
        #expect(try await server.opened.store.setDisabled(accountID: Int64(people.annID), at: nil))
        #expect(try await server.login(people.ann, on: socket)["account_id"] as? Int == people.annID)
        // A wrong signature learns nothing of the account's state.
        #expect(try await server.opened.store.setDisabled(accountID: Int64(people.annID), at: server.clock.now()))
        let stranger = try server.connect()
        let start = try await stranger.call("login_start", ["email": people.ann.email, "device_id": 1])
        let wrong = try await stranger.call("login_finish", [
            "email": people.ann.email, "device_id": 1, "nonce": start["nonce"] as Any,
            "signature": people.bob.loginSignature(nonce: start["nonce"] as! String),
        ])
        #expect(wrong.errorCode == "authentication_failed", "\(wrong)")
        try await server.stop()
    }

    @Test("in a group she created she is a departed member: the others hear why, and the group passes to them", arguments: StoreBackend.allCases)
    func groupsOutliveHer(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let created = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
        let group = try #require(created["conversation_id"] as? Int, "\(created)")
        #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).ok)
        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": group, "client_message_id": "g-1", "envelopes": people.envelopesFromAnn("hi group"),
        ])
        #expect(sent.ok, "\(sent)")
        #expect(try await people.annSocket.call("delete_account", ["confirm": people.ann.email]).ok)
        let left = try await people.bobSocket.nextNotification(named: "member_removed")
        #expect(left["conversation_id"] as? Int == group && left["account_id"] as? Int == people.annID)
        #expect(left["reason"] as? String == "account_deleted")
        // Her unfetched message went with her; Bob now holds the creator's rights.
        let messages = try await people.bobSocket.call("get_messages", ["after_ts": 0])
        #expect((messages["messages"] as? [[String: Any]])?.isEmpty == true, "\(messages)")
        let list = try await people.bobSocket.call("list_conversations")
        let entry = try #require((list["conversations"] as? [[String: Any]])?.first { $0["conversation_id"] as? Int == group })
        #expect(entry["creator_id"] as? Int == people.bobID && entry["members"] as? [Int] == [people.bobID], "\(entry)")
        try await people.server.stop()
    }
}
