import Foundation
import GRDB
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import Testing

/// The history as a component: sealed messages and a blind search index, no server, no client actor.
@Suite("Message history")
struct MessageHistoryTests {
    let account: ScratchAccount
    var scratch: TemporaryDirectory { account.scratch }
    var database: ClientDatabase { account.database }
    let history: MessageHistory

    init() throws {
        account = try ScratchAccount("history")
        history = MessageHistory(dependencies: account.context())
    }

    static func message(_ id: Int64, _ text: String, at timestamp: Int64, in conversation: Int64 = 1, kind: String = "text") -> Message {
        Message(id: id, conversationID: conversation, senderID: 2, senderDevice: 1, timestamp: timestamp, text: text, kind: kind,
                replyTo: nil, forwardedFrom: nil, reactions: [:], pinned: false, deleted: false, deliveredTo: [], undecryptable: false,
                attachment: nil)
    }

    @Test("a conversation's newest messages come back oldest first, limited, without hidden control messages")
    func conversationPages() throws {
        for (id, text) in [(1, "one"), (2, "two"), (3, "three"), (4, "four")] { try history.store(Self.message(Int64(id), text, at: Int64(id) * 10)) }
        try history.store(Self.message(5, "", at: 50, kind: RetryRequest.kind))
        try history.store(Self.message(6, "elsewhere", at: 60, in: 2))
        #expect(try history.messages(in: 1, limit: 3).map(\.text) == ["two", "three", "four"])
        #expect(try history.message(5)?.kind == RetryRequest.kind, "a hidden message is kept, only not listed")
        #expect(try history.message(99) == nil)
    }

    @Test("search finds messages holding every word, folded, newest first; a deleted message is no longer found")
    func search() throws {
        try history.store(Self.message(1, "Café at noon?", at: 10))
        try history.store(Self.message(2, "noon is fine, the CAFE on 5th", at: 20))
        try history.store(Self.message(3, "lunch elsewhere", at: 30, in: 2))
        #expect(try history.search("cafe noon", in: nil, limit: 10).map(\.id) == [2, 1])
        #expect(try history.search("lunch", in: 1, limit: 10).isEmpty, "another conversation's message")
        #expect(try history.search("a", in: nil, limit: 10).isEmpty, "one-letter words are not indexed")
        var gone = try #require(try history.message(2))
        gone.markDeleted()
        try history.store(gone)
        #expect(try history.search("cafe", in: nil, limit: 10).map(\.id) == [1])
    }

    @Test("nothing readable is stored: not the text, not a word of the index; a row moved under another id does not open")
    func sealed() throws {
        try history.store(Self.message(1, "meet at the north gate", at: 10))
        let file = try Data(contentsOf: scratch.url.appendingPathComponent("client.sqlite"))
        #expect(file.range(of: Data("north".utf8)) == nil, "a word is readable in the database file")
        try database.write { try $0.db.execute(sql: "UPDATE messages SET message_id = 7 WHERE message_id = 1") }
        #expect(throws: ClientError.self) { try history.message(7) }
    }

    @Test("an archive moves history and the records that give it meaning; a hostile one plants no sessions, prekeys or cursor")
    func archiveRoundTripAndHostileRecords() throws {
        try history.store(Self.message(1, "before pairing", at: 10))
        try database.write { writer in
            try writer.put(Namespace.conversation, "1", Array("conversation".utf8))
            try writer.put(Namespace.session, "2.1", Array("this device's session".utf8))
            try writer.put(Namespace.state, "title/1", Array("Lunch".utf8))
            try writer.put(Namespace.state, "cursor", Array("41".utf8))
        }
        let archive = try history.exportArchive()
        #expect(Set(archive.records.map(\.namespace)) == [Namespace.conversation, Namespace.state])
        #expect(!archive.records.contains { $0.key == "cursor" }, "a per-device cursor does not travel")

        let other = try TemporaryDirectory("parley-history-new")
        let newDatabase = try ClientDatabase(path: other.url.appendingPathComponent("client.sqlite"),
                                             lock: AutoLock(key: MainKey.generate(), idleTimeout: 300, clock: SystemVaultClock()))
        let newHistory = MessageHistory(dependencies: AccountContext(database: newDatabase, directory: other.url))
        var hostile = try HistoryArchive.decode(archive.encoded())
        hostile.records += [
            .init(namespace: Namespace.session, key: "2.1", value: Data("planted session".utf8)),
            .init(namespace: Namespace.preKey, key: "1", value: Data("planted prekey".utf8)),
            .init(namespace: Namespace.state, key: "cursor", value: Data("0".utf8)),
            .init(namespace: Namespace.account, key: "keys", value: Data("planted keys".utf8)),
        ]
        try newHistory.importArchive(hostile)
        #expect(try newHistory.message(1)?.text == "before pairing")
        func stored(_ namespace: String, _ key: String) throws -> [UInt8]? { try newDatabase.read { try $0.get(namespace, key) } }
        #expect(try stored(Namespace.conversation, "1") == Array("conversation".utf8))
        #expect(try stored(Namespace.state, "title/1") == Array("Lunch".utf8))
        #expect(try stored(Namespace.session, "2.1") == nil)
        #expect(try stored(Namespace.preKey, "1") == nil)
        #expect(try stored(Namespace.state, "cursor") == nil)
        #expect(try stored(Namespace.account, "keys") == nil)
        #expect(throws: ClientError.self) { try HistoryArchive.decode(Array("{\"v\":2,\"records\":[],\"messages\":[],\"omittedMessages\":0}".utf8)) }
        #expect(throws: ClientError.self) { try HistoryArchive.decode(Array(archive.encoded().dropLast(3))) }
    }
}
