import Foundation
import Testing
@testable import ParleyServer

/// `list_conversations` is paid for by the length of its answer (docs/API.md §11): a member of many large groups
/// cannot have the server build its whole list at the request rate, and nobody else is slowed.
@Suite struct ListingAllowanceTests {
    @Test("an ordinary list can be asked for as often as the connection's request budget allows (default limits)", arguments: StoreBackend.allCases)
    func ordinaryListsAreNeverPaced(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        _ = try await people.directConversation()
        _ = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
        for call in 1...90 {
            let answer = try await people.annSocket.call("list_conversations")
            #expect(answer.ok, "call \(call): \(answer)")
            guard answer.ok else { break }
        }
        try await people.server.stop()
    }

    @Test("a long list is paid for: the next listing waits, other requests and other accounts do not", arguments: StoreBackend.allCases)
    func longListsArePaidFor(backend: StoreBackend) async throws {
        // The limit under test, lowered so a list of about 600 items is long: 100 items a second, bursts of 1,000.
        let people = try await TwoPeople.start(backend: backend) { $0.accountListedItemsPerSecond = 100 }
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        var others: [Int64] = []
        for index in 0..<150 { others.append(try await Sample.activeAccount(store, "member\(index)@example.org")) }
        var firstGroup: Int?
        for _ in 0..<4 {
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: others, now: people.server.clock.now()).conversation
            for member in others { try await store.setMemberStatus(conversationID: group.id, accountID: member, status: .active, now: people.server.clock.now()) }
            firstGroup = firstGroup ?? Int(group.id)
        }

        // 4 groups of 151 members: 608 items. The first two lists are answered in full (the second runs into debt).
        for _ in 0..<2 {
            let answer = try await people.annSocket.call("list_conversations")
            let listed = try #require(answer["conversations"] as? [[String: Any]], "\(answer)")
            #expect(listed.count == 4)
            #expect(listed.allSatisfy { ($0["members"] as? [Int])?.count == 151 })
        }
        let paced = try await people.annSocket.call("list_conversations")
        #expect(paced.errorCode == "rate_limited")
        #expect(paced.errorMessage?.contains("ask again in 3 s") == true, "\(paced)")
        let wait = (paced["error"] as? [String: Any])?["details"] as? [String: Any]
        #expect(wait?["retry_after"] as? Int == 3)

        // Meanwhile everything else goes on: ann's other requests (one conversation too, counted but not paced), and
        // bob's own list.
        let one = try await people.annSocket.call("get_conversation", ["conversation_id": try #require(firstGroup)])
        #expect((one["members"] as? [Int])?.count == 151, "\(one)")
        #expect(try await people.annSocket.call("list_invitations").ok)
        #expect(try await people.annSocket.call("whoami").ok)
        #expect(try await people.bobSocket.call("list_conversations").ok)

        // Still in debt a moment before the wait is over (the one conversation, 152 items, added 1.52 s); answered once it is.
        people.server.clock.advance(milliseconds: 3_500)
        #expect(try await people.annSocket.call("list_conversations").errorCode == "rate_limited")
        people.server.clock.advance(milliseconds: 300)
        let again = try await people.annSocket.call("list_conversations")
        #expect((again["conversations"] as? [Any])?.count == 4, "\(again)")
        try await people.server.stop()
    }
}

/// The peak, not only the average: lists asked for at the same moment are paid for as they start.
@Suite struct ListingAllowancePeakTests {
    @Test("lists asked for at once on eight connections: one is built, the others wait, as they start (not after)")
    func listsAtOnceArePaidForAsTheyStart() async throws {
        let people = try await TwoPeople.start { $0.accountListedItemsPerSecond = 100 }
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        var others: [Int64] = []
        for index in 0..<150 { others.append(try await Sample.activeAccount(store, "member\(index)@example.org")) }
        for _ in 0..<4 {
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: others, now: people.server.clock.now()).conversation
            for member in others { try await store.setMemberStatus(conversationID: group.id, accountID: member, status: .active, now: people.server.clock.now()) }
        }
        // One list of 608 items leaves 392 of the 1,000 in the bucket: the next list may start, and it takes 608 as it does.
        #expect((try await people.annSocket.call("list_conversations")["conversations"] as? [Any])?.count == 4)
        var sockets: [LineSocket] = []
        for _ in 0..<8 {
            let socket = try people.server.connect()
            _ = try await people.server.login(people.ann, on: socket)
            sockets.append(socket)
        }
        let answers = await withTaskGroup(of: Bool?.self) { group in
            for socket in sockets {
                group.addTask {
                    guard let answer = try? await socket.call("list_conversations") else { return nil }
                    return answer.ok ? true : (answer.errorCode == "rate_limited" ? false : nil)
                }
            }
            return await group.reduce(into: [Bool?]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == true }.count == 1, "\(answers)")
        #expect(answers.filter { $0 == false }.count == 7, "\(answers)")
        try await people.server.stop()
    }

    @Test("at most four of one account's lists are built at once; a failed one gives back what it took")
    func listsBuiltAtOnce() throws {
        let allowance = ListingAllowance(itemsPerSecond: 100)
        var building: [ListingAllowance.Listing] = []
        for _ in 0..<ListingAllowance.listsAtOnce { building.append(try allowance.begin(accountID: 7, now: 0)) }
        do {
            _ = try allowance.begin(accountID: 7, now: 0)
            Issue.record("a fifth listing started")
        } catch {
            #expect(error.code == .rateLimited)
            #expect(error.message.contains("ask again in 1 s"))
        }
        _ = try allowance.begin(accountID: 8, now: 0)  // another account is not affected
        allowance.end(building.removeLast(), items: 900, now: 0)
        let next = try allowance.begin(accountID: 7, now: 0)  // a place came free; it takes the last length, 900
        #expect(next.reserved == 900)
        allowance.end(next, items: nil, now: 0)  // failed: the 900 come back, 100 left
        let again = try allowance.begin(accountID: 7, now: 0)
        #expect(again.reserved == 900)
        allowance.end(again, items: 900, now: 0)  // answered: 800 in debt
        do {
            _ = try allowance.begin(accountID: 7, now: 0)
            Issue.record("a listing started in debt")
        } catch {
            #expect(error.message.contains("ask again in 9 s"), "\(error)")
        }
    }

    /// Strangers make a person's list of requests as long as they like (each may have 100 waiting): 600 of them to Ann,
    /// and her list is paid for like any other.
    @Test("a long list of message requests is paid for like a list of conversations")
    func longRequestListsArePaidFor() async throws {
        let people = try await TwoPeople.start { $0.accountListedItemsPerSecond = 100 }   // the limit under test: bursts of 1,000
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        for index in 0..<600 {
            let stranger = try await Sample.activeAccount(store, "stranger\(index)@example.org")
            _ = try await store.createConversation(kind: .direct, creatorID: stranger, memberIDs: [ann], request: .pending, now: people.server.clock.now())
        }
        // 600 of 1,000; the second starts (400 left) and runs into debt; the third waits.
        for _ in 0..<2 {
            let answer = try await people.annSocket.call("list_requests")
            #expect((answer["requests"] as? [Any])?.count == 600, "\(answer.errorCode ?? "")")
        }
        let paced = try await people.annSocket.call("list_requests")
        #expect(paced.errorCode == "rate_limited", "\(paced)")
        #expect(try await people.bobSocket.call("list_requests").ok, "bob's allowance is his own")
        people.server.clock.advance(milliseconds: 9_000)
        #expect(try await people.annSocket.call("list_requests").ok)
        try await people.server.stop()
    }
}
