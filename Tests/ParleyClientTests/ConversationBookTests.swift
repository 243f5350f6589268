import Foundation
@testable import ParleyClient
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import ParleyWire
import Testing

/// The conversation list as a component: the server's list merged with what only this device keeps, a group
/// someone left reported before its new member list is stored.
@Suite("Conversation book")
struct ConversationBookTests {
    let account: ScratchAccount
    var scratch: TemporaryDirectory { account.scratch }
    var database: ClientDatabase { account.database }
    let server = ListingServer()
    let book: ConversationBook

    init() throws {
        account = try ScratchAccount("conversations")
        book = ConversationBook(dependencies: account.context(server: server))
    }

    func list(_ items: API.ConversationSummary...) { server.listed.withLock { $0 = items } }

    func group(_ id: Int64, _ members: [Int64], last: Int64? = nil) -> API.ConversationSummary {
        .init(conversationID: id, kind: .group, creatorID: 1, members: members, unread: 0, createdAt: 1, lastMessageAt: last)
    }

    func refresh() async throws -> ConversationBook.Update {
        let update = try await book.fetchUpdate()
        try book.apply(update)
        return update
    }

    @Test("a group someone left is reported, and nothing is stored before apply")
    func shrunkGroupReportedBeforeStored() async throws {
        list(group(5, [1, 2, 3]))
        #expect(try await refresh().shrunkGroups.isEmpty, "a group seen for the first time is not a shrink")
        list(group(5, [1, 2]))
        let update = try await book.fetchUpdate()
        #expect(update.shrunkGroups == [5])
        #expect(try book.stored(5)?.members == [1, 2, 3], "fetching alone stores nothing")
        try book.apply(update)
        #expect(try book.stored(5)?.members == [1, 2])
        list(group(5, [1, 2, 4]))
        #expect(try await refresh().shrunkGroups.isEmpty, "someone joining is not a shrink")
    }

    @Test("a title or favourite set while an update was being made survives its apply (the update's names are looked up meanwhile)")
    func localFieldsSetDuringAnUpdateKept() async throws {
        list(group(5, [1, 2]))
        _ = try await refresh()
        list(group(5, [1, 2, 3]))
        let update = try await book.fetchUpdate()
        #expect(update.changed.first?.title == nil)
        // The title message arrives, and the person marks the group, between the comparison and the write.
        try database.write { try ConversationBook.setTitle("Trip", of: 5, in: $0) }
        try book.setFavourite(true, conversationID: 5)
        try book.apply(update)
        #expect(try book.stored(5)?.members == [1, 2, 3])
        #expect(try book.stored(5)?.title == "Trip" && book.stored(5)?.favourite == true)
    }

    @Test("titles and favourites survive a refresh; a title that came first waits for its group; gone ones are dropped")
    func localFieldsKept() async throws {
        try database.write { try ConversationBook.setTitle("Lunch", of: 7, in: $0) }
        list(group(5, [1, 2], last: 10), group(7, [1, 3], last: 20))
        _ = try await refresh()
        #expect(try book.stored(7)?.title == "Lunch", "the title received before the group was listed")
        try book.setFavourite(true, conversationID: 5)
        try database.write { try ConversationBook.setTitle("Team", of: 5, in: $0) }
        _ = try await refresh()
        #expect(try book.stored(5)?.favourite == true && book.stored(5)?.title == "Team")
        #expect(try book.all().map(\.id) == [7, 5], "most recent first")
        list(group(7, [1, 3], last: 20))
        #expect(try await refresh().gone == [5])
        #expect(try book.stored(5) == nil)
        #expect(throws: ClientError.invalidInput("no conversation 5")) { try book.setFavourite(true, conversationID: 5) }
    }

    @Test("one conversation is read alone: changed, shrunk or gone; a server from before get_conversation is read whole")
    func oneConversation() async throws {
        list(group(5, [1, 2, 3]), group(7, [1, 4]))
        _ = try await refresh()
        list(group(5, [1, 2], last: 30), group(7, [1, 4, 6]))
        server.calls.withLock { $0 = [] }
        let update = try await book.fetchUpdate(of: 5)
        // Only 5 is read; account 3, who is no longer in it and whom this device does not know, is looked up to be named.
        #expect(server.calls.withLock { $0 } == ["get_conversation", "get_profile"])
        #expect(update.changed.map(\.id) == [5] && update.shrunkGroups == [5] && update.gone.isEmpty, "only 5 is read")
        #expect(update.notices.map(\.conversationID) == [5] && update.notices.first?.text.hasSuffix("is no longer in this group.") == true,
                "\(update.notices)")
        try book.apply(update)
        #expect(try book.stored(5)?.members == [1, 2] && book.stored(7)?.members == [1, 4])

        // Gone from the server (left, removed, deleted): gone here; an id this device never had changes nothing.
        list(group(7, [1, 4, 6]))
        #expect(try await book.fetchUpdate(of: 5).gone == [5])
        #expect(try await book.fetchUpdate(of: 99) == ConversationBook.Update())

        server.knowsOneConversation.withLock { $0 = false }
        server.calls.withLock { $0 = [] }
        let whole = try await book.fetchUpdate(of: 7)
        #expect(server.calls.withLock { $0 } == ["get_conversation", "list_conversations", "get_profile"])
        #expect(whole.changed.map(\.id) == [7] && whole.gone == [5])
        #expect(whole.notices.map(\.text).contains { $0.hasSuffix("joined this group.") }, "account 6 joined 7")
    }
}
