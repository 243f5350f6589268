import Foundation
import NIOCore
import NIOEmbedded
@testable import ParleyServer
import ParleyWire
import Synchronization
import Testing

/// A new message's envelope in its `new_message` notification (docs/API.md §6.1), over real sockets on a
/// server with default limits, and the per-connection allowance that bounds it.
@Suite("Envelopes pushed in new_message", .serialized)
struct PushedEnvelopeTests {
    static let listedFields = ["message_id", "conversation_id", "sender_id", "sender_device", "timestamp", "kind", "ciphertext"]

    @Test("a connection that asked gets its device's envelope in the notification, as get_messages lists it; others get the hint",
          arguments: StoreBackend.allCases)
    func pushedToWhoAsked(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation()
        let bobPushing = try people.server.connect()
        #expect(try await bobPushing.login(people.bob, push: true).ok)

        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "p-1", "envelopes": people.envelopesFromAnn("hello"),
        ])
        let id = try #require(sent["message_id"] as? Int)
        let pushed = try await bobPushing.nextNotification(named: "new_message")
        let hint = try await people.bobSocket.nextNotification(named: "new_message")
        #expect(hint["message_id"] as? Int == id && hint["ciphertext"] == nil, "\(hint)")
        let listed = try #require((try await people.bobSocket.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])?.first)
        for field in Self.listedFields {
            #expect("\(pushed[field] ?? "absent")" == "\(listed[field] ?? "absent")", "\(field): pushed \(pushed), listed \(listed)")
        }
        #expect(pushed["ciphertext"] as? String == Data("to-bob:hello".utf8).base64EncodedString())

        // An envelope longer than the push limit stays a hint, to be fetched.
        let long = Data((0..<(ConnectionLimits().pushedEnvelopeLimit + 1)).map { UInt8(truncatingIfNeeded: $0) }).base64EncodedString()
        let second = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "p-2",
            "envelopes": [["account_id": people.bobID, "device_id": 1, "ciphertext": long]],
        ])
        let longID = try #require(second["message_id"] as? Int)
        let longHint = try await bobPushing.nextNotification(named: "new_message")
        #expect(longHint["message_id"] as? Int == longID && longHint["ciphertext"] == nil, "\(longHint)")
        let fetched = try #require(try await bobPushing.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])
        #expect(fetched.last?["ciphertext"] as? String == long)
    }

    @Test("push_envelopes is true or false; anything else is refused and logs nothing in")
    func hostileLoginField() async throws {
        let people = try await TwoPeople.start()
        for value: Any in ["yes", 1, ["true"], NSNull()] {
            let socket = try people.server.connect()
            let answer = try await socket.login(people.bob, push: value)
            #expect(answer.errorCode == "invalid_field", "\(value): \(answer)")
            #expect(try await socket.call("list_conversations").errorCode == "unauthenticated", "\(value)")
        }
        let conversation = try await people.directConversation()
        let plain = try people.server.connect()
        #expect(try await plain.login(people.bob, push: false).ok)
        _ = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "h-1", "envelopes": people.envelopesFromAnn("hi"),
        ])
        #expect(try await plain.nextNotification(named: "new_message")["ciphertext"] == nil)
    }

    @Test("whoever blocked the sender hears nothing of the message, pushed or hinted; the others get theirs pushed")
    func blockedHearNothing() async throws {
        let people = try await TwoPeople.start()
        let (carol, carolSocket, carolID, group) = try await people.groupWithCarol()
        let bobPushing = try people.server.connect(), carolPushing = try people.server.connect()
        #expect(try await bobPushing.login(people.bob, push: true).ok)
        #expect(try await carolPushing.login(carol, push: true).ok)
        #expect(try await people.bobSocket.call("block_account", ["email": people.ann.email]).ok)

        func send(_ text: String, from socket: LineSocket, to accounts: [Int]) async throws -> Int {
            let answer = try await socket.call("send_message", [
                "conversation_id": group, "client_message_id": UUID().uuidString,
                "envelopes": accounts.map { ["account_id": $0, "device_id": 1, "ciphertext": Data("\(text)->\($0)".utf8).base64EncodedString()] },
            ])
            return try #require(answer["message_id"] as? Int, "\(answer)")
        }
        let fromAnn = try await send("ann", from: people.annSocket, to: [people.bobID, carolID])
        let atCarol = try await carolPushing.nextNotification(named: "new_message")
        #expect(atCarol["message_id"] as? Int == fromAnn)
        #expect(atCarol["ciphertext"] as? String == Data("ann->\(carolID)".utf8).base64EncodedString())
        // Bob's first new_message, on either connection, is Carol's later one: nothing of Ann's reached him.
        let fromCarol = try await send("carol", from: carolSocket, to: [people.annID, people.bobID])
        let atBob = try await bobPushing.nextNotification(named: "new_message")
        #expect(atBob["message_id"] as? Int == fromCarol && atBob["sender_id"] as? Int == carolID, "\(atBob)")
        #expect(atBob["ciphertext"] as? String == Data("carol->\(people.bobID)".utf8).base64EncodedString())
        #expect(try await people.bobSocket.nextNotification(named: "new_message")["message_id"] as? Int == fromCarol)
    }

    @Test("a connection that does not read holds at most its allowance of pushed ciphertext; the rest are hints, and written pushes give it back")
    func allowanceBoundsWhatWaits() async throws {
        let hub = NotificationHub()
        // A channel whose socket takes nothing: every write waits, its promise open, as for a device that does not read.
        let channel = EmbeddedChannel(handler: HeldWrites())
        let held = try channel.pipeline.syncOperations.handler(type: HeldWrites.self)
        let outlet = NotificationOutlet(channel: channel)
        hub.subscribe(accountID: 7, deviceID: 1, connection: ObjectIdentifier(channel), outlet: outlet, pushesEnvelopes: true, disconnect: {})
        // The allowance counts the ciphertext as it waits: base64 text, 4 characters for 3 bytes.
        let ciphertext = [UInt8](repeating: 0x41, count: ConnectionLimits().pushedEnvelopeLimit / 4 * 3)
        let fitting = EnvelopeAllowance.bytesPerConnection / ConnectionLimits().pushedEnvelopeLimit
        func push(_ id: Int64) -> ServerEvent {
            .newMessage(.init(messageID: id, conversationID: 1, senderID: 8, senderDevice: 1, timestamp: id, kind: "text", ciphertext: ciphertext))
        }
        for id in 0..<(fitting + 4) { hub.notify(accountID: 7, deviceID: 1, push(Int64(id))) }
        #expect(outlet.waitingCount == fitting + 4)
        #expect(held.writes.map { $0.line.contains("\"ciphertext\"") } == Array(repeating: true, count: fitting) + Array(repeating: false, count: 4))
        // Once written, the allowance is back: the next push carries its envelope again.
        held.release()
        #expect(outlet.waitingCount == 0)
        hub.notify(accountID: 7, deviceID: 1, push(99))
        #expect(held.writes.last?.line.contains("\"ciphertext\"") == true)
        held.release()
        _ = try? channel.finish()
    }

    @Test("a connection with a full notification queue is disconnected, not buffered: the next notification is refused")
    func fullQueueDisconnects() throws {
        let hub = NotificationHub()
        let channel = EmbeddedChannel(handler: HeldWrites())
        let held = try channel.pipeline.syncOperations.handler(type: HeldWrites.self)
        let outlet = NotificationOutlet(channel: channel)
        let disconnected = Mutex(0)
        hub.subscribe(accountID: 7, deviceID: 1, connection: ObjectIdentifier(channel), outlet: outlet, disconnect: { disconnected.withLock { $0 += 1 } })
        for id in 0..<NotificationHub.queueLimit { hub.notify(accountID: 7, deviceID: 1, .userOnline(.init(accountID: Int64(id)))) }
        #expect(disconnected.withLock { $0 } == 0)
        #expect(outlet.waitingCount == NotificationHub.queueLimit)
        hub.notify(accountID: 7, deviceID: 1, .userOnline(.init(accountID: 0)))
        #expect(disconnected.withLock { $0 } == 1)
        #expect(outlet.waitingCount == NotificationHub.queueLimit)
        held.release()
        #expect(outlet.waitingCount == 0)
        _ = try? channel.finish()
    }
}

/// Keeps every write with its promise, as a socket that takes nothing would, until `release`.
private final class HeldWrites: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer

    private(set) var writes: [(line: String, promise: EventLoopPromise<Void>?)] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writes.append((String(buffer: unwrapOutboundIn(data)), promise))
    }

    func flush(context: ChannelHandlerContext) {}

    /// Completes every held write, as if the socket took them.
    func release() {
        let promises = writes.compactMap(\.promise)
        writes = writes.map { ($0.line, nil) }
        promises.forEach { $0.succeed() }
    }
}
