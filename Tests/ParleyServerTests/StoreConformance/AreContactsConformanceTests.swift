import Foundation
@testable import ParleyServer
import Testing

/// `areContacts(a, b)` answers exactly what `contactIDs(accountID: a).contains(b)` does, on every backend, for every
/// pair of a small world with each kind of relation: an accepted direct conversation, a pending and a declined
/// request, a group with a member who left and one invited, a deleted conversation, and a block.
@Suite("Store conformance: contacts, one pair at a time")
struct AreContactsConformanceTests {
    /// Ann, Bob, Carol, Dave, Erin, Fred and Gina, active, in that order.
    static func sevenPeople(_ store: any Store) async throws -> [Int64] {
        var people: [Int64] = []
        for name in ["ann", "bob", "carol", "dave", "erin", "fred", "gina"] {
            people.append(try await Sample.activeAccount(store, "\(name)@example.org"))
        }
        return people
    }

    @Test(arguments: StoreBackend.allCases)
    func agreesWithTheContactList(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let people = try await Self.sevenPeople(store)
            let (ann, bob, carol, dave, erin, fred, gina) = (people[0], people[1], people[2], people[3], people[4], people[5], people[6])
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 10)                     // contacts
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [carol], request: .pending, now: 11) // asked, no answer
            let declined = try await store.createConversation(kind: .direct, creatorID: dave, memberIDs: [ann], request: .pending, now: 12).conversation
            try await store.setRequestState(conversationID: declined.id, accountID: ann, .declined)
            let group = try await store.createConversation(kind: .group, creatorID: bob, memberIDs: [carol, dave, erin], now: 13).conversation
            try await store.setMemberStatus(conversationID: group.id, accountID: carol, status: .active, now: 14)
            try await store.setMemberStatus(conversationID: group.id, accountID: dave, status: .active, now: 14)
            try await store.setMemberStatus(conversationID: group.id, accountID: dave, status: .left, now: 15)   // erin stays invited
            let gone = try await store.createConversation(kind: .direct, creatorID: erin, memberIDs: [fred], now: 16).conversation
            try await store.deleteConversation(conversationID: gone.id, now: 17)
            _ = try await store.createConversation(kind: .direct, creatorID: fred, memberIDs: [gina], now: 18)
            #expect(try await store.block(gina, by: fred, limit: 10, now: 19))
            _ = try await store.createConversation(kind: .direct, creatorID: gina, memberIDs: [bob], now: 20)

            var pairs = 0, contacts = 0
            for a in people {
                let listed = Set(try await store.contactIDs(accountID: a))
                for b in people {
                    let answer = try await store.areContacts(a, b)
                    #expect(answer == listed.contains(b), "areContacts(\(a), \(b)) = \(answer), contactIDs says \(listed.contains(b))")
                    pairs += 1
                    if answer { contacts += 1 }
                }
            }
            #expect(pairs == 49)
            // ann–bob, bob–carol (the group), gina–bob, each both ways: nothing else.
            #expect(contacts == 6)
            #expect(try await store.areContacts(ann, 999_999) == false)
        }
    }

    /// `requestPartners`: both sides of a request still waiting, and nobody else — not a declined one, not a deleted
    /// conversation's, not across a block, not contacts.
    @Test(arguments: StoreBackend.allCases)
    func requestPartners(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let people = try await Self.sevenPeople(store)
            let (ann, bob, carol, dave, erin, fred, gina) = (people[0], people[1], people[2], people[3], people[4], people[5], people[6])
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 10)     // waiting
            let declined = try await store.createConversation(kind: .direct, creatorID: carol, memberIDs: [ann], request: .pending, now: 11).conversation
            try await store.setRequestState(conversationID: declined.id, accountID: ann, .declined)
            let gone = try await store.createConversation(kind: .direct, creatorID: dave, memberIDs: [ann], request: .pending, now: 12).conversation
            try await store.deleteConversation(conversationID: gone.id, now: 13)
            _ = try await store.createConversation(kind: .direct, creatorID: fred, memberIDs: [gina], request: .pending, now: 14)
            #expect(try await store.block(gina, by: fred, limit: 10, now: 15))
            _ = try await store.createConversation(kind: .direct, creatorID: erin, memberIDs: [ann], now: 16)                       // contacts

            #expect(try await store.requestPartners(accountID: ann) == [bob])
            #expect(try await store.requestPartners(accountID: bob) == [ann])
            for account in [carol, dave, erin, fred, gina] {
                #expect(try await store.requestPartners(accountID: account) == [], "\(account)")
            }
        }
    }
}
