import Foundation
@testable import ParleyServer
import Testing

/// `RequestStore` behaviour, identical on every backend.
@Suite("Store conformance: message requests and blocks")
struct RequestConformanceTests {
    @Test("a pending request is listed, is no contact, and writing in it accepts it; a declined one withholds", arguments: StoreBackend.allCases)
    func requests(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let (direct, _) = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 10)
            #expect(try await store.requestState(conversationID: direct.id, accountID: bob) == .pending)
            #expect(try await store.requestState(conversationID: direct.id, accountID: ann) == nil)
            #expect(try await store.contactIDs(accountID: ann) == [])
            #expect(try await store.contactIDs(accountID: bob) == [])
            let listed = try await store.requests(accountID: bob)
            #expect(listed.map(\.requesterID) == [ann] && listed.first?.requesterEmail == "ann@example.org")
            #expect(try await store.conversations(accountID: bob).map(\.request) == [.pending])
            #expect(try await store.requests(accountID: ann).isEmpty)

            // Declined: gone from Bob's lists, and Ann's next message stores nothing for him.
            try await store.setRequestState(conversationID: direct.id, accountID: bob, .declined)
            #expect(try await store.requests(accountID: bob).isEmpty)
            #expect(try await store.conversations(accountID: bob).isEmpty)
            let toBob = Envelope(accountID: bob, deviceID: 1, ciphertext: [1, 2, 3])
            let withheld = try await store.insertMessage(
                NewMessage(conversationID: direct.id, senderID: ann, senderDevice: 1, clientMessageID: "a-1", kind: "text",
                           replyTo: nil, envelopes: [toBob], directed: false), now: 20)
            #expect(withheld.created)
            #expect(try await store.messages(accountID: bob, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)

            // Bob writing in it (not a one-device retry) accepts it: contacts, and Ann's messages reach him.
            let toAnn = Envelope(accountID: ann, deviceID: 1, ciphertext: [4])
            _ = try await store.insertMessage(
                NewMessage(conversationID: direct.id, senderID: bob, senderDevice: 1, clientMessageID: "b-retry", kind: "retry",
                           replyTo: nil, envelopes: [toAnn], directed: true), now: 30)
            #expect(try await store.requestState(conversationID: direct.id, accountID: bob) == .declined)
            _ = try await store.insertMessage(
                NewMessage(conversationID: direct.id, senderID: bob, senderDevice: 1, clientMessageID: "b-1", kind: "text",
                           replyTo: nil, envelopes: [toAnn], directed: false), now: 40)
            #expect(try await store.requestState(conversationID: direct.id, accountID: bob) == nil)
            #expect(try await store.contactIDs(accountID: ann) == [bob])
            _ = try await store.insertMessage(
                NewMessage(conversationID: direct.id, senderID: ann, senderDevice: 1, clientMessageID: "a-2", kind: "text",
                           replyTo: nil, envelopes: [toBob], directed: false), now: 50)
            #expect(try await store.messages(accountID: bob, deviceID: 1, afterTimestamp: 0, limit: 10).count == 1)
        }
    }

    @Test("unanswered requests count the starter's direct conversations still pending: not accepted, declined or deleted ones, groups, or others' requests", arguments: StoreBackend.allCases)
    func unansweredRequests(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            var others: [Int64] = []
            for index in 0..<5 { others.append(try await Sample.activeAccount(store, "p\(index)@example.org")) }
            var direct: [Int64] = []
            for other in others {
                direct.append(try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [other], request: .pending, now: 10).conversation.id)
            }
            _ = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: others, now: 11)
            let theirs = try await Sample.activeAccount(store, "q@example.org")
            _ = try await store.createConversation(kind: .direct, creatorID: theirs, memberIDs: [ann], request: .pending, now: 12)
            #expect(try await store.unansweredRequests(startedBy: ann) == 5)
            #expect(try await store.unansweredRequests(startedBy: others[0]) == 0)
            try await store.setRequestState(conversationID: direct[0], accountID: others[0], nil)
            try await store.setRequestState(conversationID: direct[1], accountID: others[1], .declined)
            try await store.deleteConversation(conversationID: direct[2], now: 20)
            #expect(try await store.unansweredRequests(startedBy: ann) == 2)
            #expect(try await store.unansweredRequests(startedBy: theirs) == 1)
        }
    }

    @Test("a block is listed once, declines pending requests, ends the contact, and the list has a limit", arguments: StoreBackend.allCases)
    func blocks(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let carol = try await Sample.activeAccount(store, "carol@example.org")
            let (direct, _) = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 10)
            let (accepted, _) = try await store.createConversation(kind: .direct, creatorID: carol, memberIDs: [bob], now: 11)
            #expect(try await store.contactIDs(accountID: bob) == [carol])

            #expect(try await store.block(ann, by: bob, limit: 2, now: 20))
            #expect(try await store.block(ann, by: bob, limit: 2, now: 21))   // again: no second row
            #expect(try await store.blockedAccounts(by: bob).map(\.accountID) == [ann])
            #expect(try await store.hasBlocked(bob, ann))
            #expect(try await !store.hasBlocked(ann, bob))
            #expect(try await store.requestState(conversationID: direct.id, accountID: bob) == .declined)

            #expect(try await store.block(carol, by: bob, limit: 2, now: 22))
            #expect(try await store.contactIDs(accountID: bob) == [])
            #expect(try await store.contactIDs(accountID: carol) == [])
            #expect(try await store.requestState(conversationID: accepted.id, accountID: bob) == nil)   // accepted stays accepted
            let dave = try await Sample.activeAccount(store, "dave@example.org")
            #expect(try await !store.block(dave, by: bob, limit: 2, now: 23))
            #expect(try await store.blockedAccounts(by: bob) == [BlockedEntry(accountID: ann, displayName: "ann"), BlockedEntry(accountID: carol, displayName: "carol")])

            try await store.unblock(carol, by: bob)
            try await store.unblock(dave, by: bob)   // not listed: nothing happens
            #expect(try await store.blockedAccounts(by: bob).map(\.accountID) == [ann])
            #expect(try await store.contactIDs(accountID: bob) == [carol])
        }
    }

    @Test("a deleted request is remembered by the pair's deleted conversation: starter, person, time and an answer still owed",
          arguments: StoreBackend.allCases)
    func deletedRequest(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            #expect(try await !store.requestDeleted(from: ann, to: bob, since: 0), "never asked")
            let asked = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 10).conversation.id
            #expect(try await !store.requestDeleted(from: ann, to: bob, since: 0), "asked, not deleted")
            try await store.deleteConversation(conversationID: asked, now: 20)
            #expect(try await store.requestDeleted(from: ann, to: bob, since: 20))
            #expect(try await !store.requestDeleted(from: ann, to: bob, since: 21), "deleted before the window")
            #expect(try await !store.requestDeleted(from: bob, to: ann, since: 0), "bob did not ask")
            #expect(try await !store.requestDeleted(from: ann, to: cy, since: 0), "another pair")
            // Answered before it was deleted: nothing was owed.
            let answered = try await store.createConversation(kind: .direct, creatorID: cy, memberIDs: [bob], request: .pending, now: 30).conversation.id
            try await store.setRequestState(conversationID: answered, accountID: bob, nil)
            try await store.deleteConversation(conversationID: answered, now: 40)
            #expect(try await !store.requestDeleted(from: cy, to: bob, since: 0))
            // The pair's next conversation replaces the deleted one.
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 50)
            #expect(try await !store.requestDeleted(from: ann, to: bob, since: 0))
        }
    }
}
