import Foundation
import Testing
@testable import ParleyServer

/// A conversation holds at most `API.PinMessage.maximumPinned` pins (docs/API.md §5): `get_pinned_messages` lists
/// every one, so without a bound a member could make that list as long as the conversation's history.
@Suite struct PinLimitTests {
    @Test("the hundred-and-first pin is refused in words; unpinning one makes room; the connection goes on")
    func hundredAndFirstRefused() async throws {
        let people = try await TwoPeople.start()
        let conversation = Int64(try await people.directConversation())
        let store = people.server.opened.store
        let ann = Int64(people.annID), bob = Int64(people.bobID)
        var ids: [Int] = []
        for index in 0...100 {
            let stored = try await store.insertMessage(
                Sample.message(conversation, from: ann, to: [(bob, 1)], clientID: "pin-\(index)"), now: people.server.clock.now() + Int64(index))
            ids.append(Int(stored.id))
        }
        for id in ids.prefix(100) {
            people.server.clock.advance(milliseconds: 50)   // within the connection's request rate
            let answer = try await people.bobSocket.call("pin_message", ["message_id": id, "pinned": true])
            #expect(answer.ok, "\(answer)")
        }
        let refused = try await people.bobSocket.call("pin_message", ["message_id": ids[100], "pinned": true])
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage == "this conversation has 100 pinned messages, the most one may have; unpin one first")
        let pinned = try await people.annSocket.call("get_pinned_messages", ["conversation_id": Int(conversation)])
        #expect((pinned["messages"] as? [Any])?.count == 100)
        #expect(try await people.annSocket.call("pin_message", ["message_id": ids[0], "pinned": false]).ok)
        #expect(try await people.annSocket.call("pin_message", ["message_id": ids[100], "pinned": true]).ok)
        try await people.server.stop()
    }
}
