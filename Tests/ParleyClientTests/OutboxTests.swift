import Foundation
import GRDB
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import Testing

/// The outbox as a component: a sealed table, no server, no client actor.
@Suite("Outbox")
struct OutboxTests {
    let account: ScratchAccount
    var scratch: TemporaryDirectory { account.scratch }
    var database: ClientDatabase { account.database }
    let outbox: Outbox

    init() throws {
        account = try ScratchAccount("outbox")
        outbox = Outbox(dependencies: account.context())
    }

    static func entry(_ id: String, text: String, created: Int64) -> OutboxEntry {
        OutboxEntry(conversationID: 7, content: MessageContent(id: id, type: "text", text: text), kind: "text", forwardOf: nil, created: created)
    }

    @Test("entries come back oldest first, whole, and go when removed")
    func keepsAndForgets() throws {
        try outbox.add(Self.entry("b", text: "second", created: 20))
        try outbox.add(Self.entry("a", text: "first", created: 10))
        try outbox.add(Self.entry("c", text: "third", created: 20))
        #expect(try outbox.count() == 3)
        #expect(try outbox.pending().map(\.content.text) == ["first", "second", "third"])
        try outbox.remove("b")
        #expect(try outbox.pending().map(\.content.id) == ["a", "c"])
        try database.write { try Outbox.remove("a", in: $0) }
        #expect(try outbox.count() == 1)
    }

    @Test("a message of only spaces, line breaks or invisible characters is refused as empty; nothing is queued")
    func blankMessagesAreRefused() async throws {
        let outgoing = Outgoing(dependencies: account.context())
        for text in ["", "   ", "\n\n", "\u{200B}", " \u{2060}\t\u{00A0}"] {
            await #expect(throws: ClientError.invalidInput("the message is empty"), "\(text.debugDescription)") {
                try await outgoing.send(text, to: 7)
            }
        }
        #expect(try outbox.count() == 0)
    }

    @Test("the same client message id is kept once: a second add is refused, the first stays")
    func oneRowPerMessage() throws {
        try outbox.add(Self.entry("x", text: "original", created: 1))
        #expect(throws: ClientError.self) { try outbox.add(Self.entry("x", text: "again", created: 2)) }
        #expect(try outbox.pending().map(\.content.text) == ["original"])
    }

    @Test("nothing readable is stored, and a row moved under another id does not open")
    func sealed() throws {
        try outbox.add(Self.entry("secret-id", text: "meet at the north gate", created: 1))
        let raw = try database.read { reader in try Data.fetchOne(reader.db, sql: "SELECT body FROM outbox") } ?? Data()
        #expect(!raw.isEmpty)
        #expect(raw.range(of: Data("north gate".utf8)) == nil, "the message is readable in the database")
        try database.write { writer in
            try writer.db.execute(sql: "UPDATE outbox SET client_message_id = 'moved' WHERE client_message_id = 'secret-id'")
        }
        #expect(try outbox.pending().isEmpty, "a row bound to another id opened")
        #expect(try outbox.count() == 1)
    }
}
