import Foundation
import ParleyWire
import Testing

/// Notifications: one enum both sides use, held to docs/API.md §14's table, readable only when well formed.
@Suite("Server events")
struct ServerEventTests {
    /// One of every event, with every optional field present.
    static let examples: [ServerEvent] = [
        .newMessage(.init(messageID: 9041, conversationID: 12, senderID: 7, senderDevice: 2, timestamp: 1_800_000_000_123, kind: "text",
                          replyTo: 9040, ciphertext: [1, 2, 3])),
        .messageDelivered(.init(messageID: 9041, accountID: 8, deviceID: 1)),
        .messagesRead(.init(conversationID: 12, accountID: 8, upTo: 9041)),
        .messageDeleted(.init(conversationID: 12, messageID: 9041)),
        .messageReacted(.init(conversationID: 12, messageID: 9041, accountID: 8, emoji: "👍", present: true)),
        .messagePinned(.init(conversationID: 12, messageID: 9041, accountID: 8)),
        .messageUnpinned(.init(conversationID: 12, messageID: 9041, accountID: 8)),
        .conversationCreated(.init(conversationID: 12, creatorID: 7)),
        .messageRequest(.init(conversationID: 13, creatorID: 7)),
        .requestAccepted(.init(conversationID: 13, accountID: 8)),
        .groupInvitation(.init(conversationID: 14, creatorID: 7, invitedBy: 9)),
        .memberAdded(.init(conversationID: 14, accountID: 9)),
        .memberRemoved(.init(conversationID: 14, accountID: 9, reason: "left")),
        .conversationDeleted(.init(conversationID: 12, reason: "account_deleted")),
        .accountDeleted(.init(accountID: 7)),
        .accountDisabled(.init(accountID: 8)),
        .deviceAdded(.init(deviceID: 3, name: "laptop")),
        .deviceRemoved(.init(deviceID: 2)),
        .onlineUsers(.init(accountIDs: [7, 9])),
        .userOnline(.init(accountID: 7)),
        .userOffline(.init(accountID: 7)),
        .keysUpdated(.init(accountID: 7)),
        .profileUpdated(.init(accountID: 7)),
        .newWaypoints(.init(ownerID: 7, routeID: 3, count: 2, lastWaypointID: 41)),
    ]

    @Test("every event has an example, and each example's name is its catalog entry's")
    func examplesCoverCatalog() {
        #expect(Self.examples.map(\.name) == ServerEvent.catalog.map(\.name))
        #expect(Set(ServerEvent.catalog.map(\.name)).count == ServerEvent.catalog.count, "an event is listed twice")
    }

    @Test("each event written as a line reads back as itself, and writes exactly the fields its entry lists")
    func roundTrip() throws {
        for event in Self.examples {
            let line = try WireMessage.notification(event: event.name, fields: event.fields).encodedLine()
            guard case .notification(let name, let fields) = try WireMessage.parse(line: line.dropLast()) else {
                Issue.record("\(event.name) did not come back as a notification"); continue
            }
            #expect(try ServerEvent(name: name, fields: fields) == event)
            let listed = ServerEvent.catalog.first { $0.name == name }!.fieldNames.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 }
            #expect(Set(fields.keys) == Set(listed), "\(name) writes \(fields.keys.sorted()), its entry lists \(listed)")
        }
    }

    @Test("docs/API.md §14's notification table lists every event with the same fields, and nothing else")
    func tableMatchesCatalog() throws {
        let docs = try String(contentsOf: LayeringTests.root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        guard let start = docs.range(of: "\n### Notifications\n", range: docs.range(of: "\n## 14. Method index")!.upperBound..<docs.endIndex) else {
            Issue.record("docs/API.md §14 has no Notifications table"); return
        }
        let rows = docs[start.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("#") }.filter { $0.hasPrefix("| `") }
        var documented: [String: [String]] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[APIRegistryTests.fields(cells[0]).first!] = APIRegistryTests.fields(cells[1])
        }
        #expect(documented.count == rows.count, "an event is listed twice")
        for entry in ServerEvent.catalog {
            #expect(documented[entry.name] == entry.fieldNames.sorted(), "docs/API.md §14 disagrees about \(entry.name)")
        }
        #expect(Set(documented.keys) == Set(ServerEvent.catalog.map(\.name)))
    }

    @Test("an event this version does not know is nil, not an error")
    func unknownEvent() throws {
        #expect(try ServerEvent(name: "future_event", fields: ["anything": 1]) == nil)
        #expect(try ServerEvent(name: "", fields: [:]) == nil)
    }

    @Test("a known event with a field missing, of the wrong type or out of range is refused naming the field")
    func malformed() {
        for event in Self.examples {
            let entry = ServerEvent.catalog.first { $0.name == event.name }!
            for field in entry.fieldNames where !field.hasSuffix("?") {
                var missing = event.fields
                missing.removeValue(forKey: field)
                #expect(throws: WireError.missing(field), "\(event.name) without \(field)") { try ServerEvent(name: event.name, fields: missing) }
                var wrong = event.fields
                wrong[field] = .object(["x": 1])
                #expect(throws: WireError.self, "\(event.name) with \(field) an object") { try ServerEvent(name: event.name, fields: wrong) }
            }
        }
        let negative: [String: JSONValue] = ["conversation_id": -1, "creator_id": 7]
        #expect(throws: WireError.invalid("conversation_id", "must be between 0 and \(Int64.max)")) {
            try ServerEvent(name: "conversation_created", fields: negative)
        }
        let bigDevice: [String: JSONValue] = ["device_id": .int(Int64(UInt32.max) + 1)]
        #expect(throws: WireError.self) { try ServerEvent(name: "device_removed", fields: bigDevice) }
        let fraction: [String: JSONValue] = ["account_id": .number(7.5)]
        #expect(throws: WireError.invalid("account_id", "must be a whole number")) { try ServerEvent(name: "user_online", fields: fraction) }
    }
}
