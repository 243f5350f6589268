import Foundation
@testable import ParleyClient
import ParleyWire
import Synchronization
import Testing

/// The notification handler alone, on a sealed database with no server or actor behind it: what a notice says of
/// a stored message lands, and what a hostile server sends instead changes nothing stored.
@Suite("Server notices, the part")
struct ServerNoticesTests {
    private static func reacted(_ id: Int64, _ emoji: String = "👍", present: Bool = true) -> [String: JSONValue] {
        ["conversation_id": .int(3), "message_id": .int(id), "account_id": .int(2), "emoji": .string(emoji), "present": .bool(present)]
    }

    @Test("reactions, pins and deliveries land on the stored message, a re-send's delivery on its original; subscribers hear each")
    func noticesLand() async throws {
        let scene = try NoticeScene("notices")
        let (account, notices, history) = (scene.account, scene.notices, scene.history)
        try account.database.write { try $0.put(Namespace.resendOf, "77", Array("5".utf8)) }

        await notices.handle("message_reacted", Self.reacted(5))
        await notices.handle("message_pinned", ["conversation_id": .int(3), "message_id": .int(5), "account_id": .int(2)])
        await notices.handle("message_delivered", ["message_id": .int(77), "account_id": .int(9), "device_id": .int(1)])
        let stored = try #require(try history.message(5))
        #expect(stored.reactions["👍"] == [2] && stored.pinned && stored.deliveredTo == [9])
        try await eventually("subscribers hear the three notices") { scene.heard.count == 3 }
        scene.listener.cancel()
    }

    @Test("malformed, unknown, oversized and misdirected notices change nothing stored; a malformed one is not passed on")
    func hostileNoticesChangeNothing() async throws {
        let scene = try NoticeScene("notices-hostile")
        let (notices, history) = (scene.notices, scene.history)
        let before = try #require(try history.message(5))

        var missing = Self.reacted(5)
        missing["emoji"] = nil
        var wrongType = Self.reacted(5)
        wrongType["message_id"] = .string("5")
        await notices.handle("message_reacted", missing)
        await notices.handle("message_reacted", wrongType)
        await notices.handle("message_reacted", Self.reacted(5, String(repeating: "👍", count: 100)))   // over 64 bytes
        await notices.handle("no_such_event", ["message_id": .int(5)])
        await notices.handle("\u{1B}[2J", [:])
        // Well formed, about messages this device does not have: nothing is made up.
        await notices.handle("message_reacted", Self.reacted(6))
        await notices.handle("message_deleted", ["conversation_id": .int(3), "message_id": .int(999)])
        // Out of range, and a new message without its fields: malformed, so neither acted on nor passed on.
        await notices.handle("message_deleted", ["conversation_id": .int(3), "message_id": .int(-1)])
        await notices.handle("new_message", ["message_id": .int(8), "conversation_id": .int(3)])

        #expect(try history.message(5) == before)
        #expect(try history.message(6) == nil && history.message(999) == nil)
        try await eventually("the two well-formed notices are passed on") { scene.heard.count >= 2 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(scene.heard == ["message_reacted", "message_deleted"], "only well-formed notices reach subscribers")
        scene.listener.cancel()
    }
}

/// A sealed database holding message 5, the notices part over it, and the names of the notices its subscribers hear.
private final class NoticeScene: Sendable {
    let account: ScratchAccount
    let notices: ServerNotices
    let history: MessageHistory
    let listener: Task<Void, Never>
    private let names: NameLog

    init(_ name: String) throws {
        account = try ScratchAccount(name)
        let context = account.context()
        history = MessageHistory(dependencies: context)
        try history.store(Message(
            id: 5, conversationID: 3, senderID: 2, senderDevice: 1, timestamp: 1, text: "hi", kind: "text", replyTo: nil,
            forwardedFrom: nil, reactions: [:], pinned: false, deleted: false, deliveredTo: [], undecryptable: false))
        notices = ServerNotices(dependencies: context, presence: PresenceBook())
        let names = NameLog()
        let events = context.events.subscribe()
        listener = Task { for await event in events { if case .server(let notice) = event { names.add(notice.name) } } }
        self.names = names
    }

    /// The names heard so far, in order.
    var heard: [String] { names.all }
}

/// Names, appended from one task and read from another.
private final class NameLog: Sendable {
    private let names = Mutex<[String]>([])
    func add(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}
