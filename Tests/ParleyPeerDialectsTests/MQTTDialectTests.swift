@testable import ParleyPeerDialects
import Testing

/// The MQTT 3.1.1 side of `parley bench peer mqtt`, fed a broker's bytes without a socket.
@Suite struct MQTTDialectTests {
    /// A session past CONNACK and SUBACK, as connection 3.
    private func readySession() throws -> MQTTDialect {
        var dialect = MQTTDialect(index: 3)
        _ = dialect.opening()
        _ = try dialect.read([0x20, 0x02, 0x00, 0x00])
        #expect(try dialect.read([0x90, 0x03, 0x00, 0x01, 0x01]) == [.ready(address: "b/3")])
        return dialect
    }

    @Test func opensWithConnectThenSubscribesToItsOwnTopic() throws {
        var dialect = MQTTDialect(index: 3)
        // CONNECT, "MQTT" level 4, clean session, keep-alive 0, client id "bench-3" (MQTT 3.1.1 §3.1).
        #expect(dialect.opening() == [0x10, 19, 0, 4] + Array("MQTT".utf8) + [4, 2, 0, 0, 0, 7] + Array("bench-3".utf8))
        // SUBSCRIBE, packet id 1, "b/3" at QoS 1 (§3.8).
        #expect(try dialect.read([0x20, 0x02, 0x00, 0x00]) == [.answer([0x82, 8, 0, 1, 0, 3] + Array("b/3".utf8) + [1])])
    }

    @Test func refusalsEndTheSession() throws {
        var refused = MQTTDialect(index: 1)
        #expect(throws: PeerWireError.self) { try refused.read([0x20, 0x02, 0x00, 0x05]) }
        var unsubscribed = MQTTDialect(index: 1)
        _ = try unsubscribed.read([0x20, 0x02, 0x00, 0x00])
        #expect(throws: PeerWireError.self) { try unsubscribed.read([0x90, 0x03, 0x00, 0x01, 0x80]) }
    }

    @Test func aPublicationIsAcknowledgedByItsPacketID() throws {
        var dialect = try readySession()
        let first = dialect.publish(id: 41, size: 16, to: "b/2")
        let second = dialect.publish(id: 42, size: 16, to: "b/2")
        // PUBLISH at QoS 1: topic, packet id 1 then 2, the payload "41:" and filler.
        #expect(first == [0x32, 2 + 3 + 2 + 16, 0, 3] + Array("b/2".utf8) + [0, 1] + Array("41:xxxxxxxxxxxxx".utf8))
        #expect(second[8] == 2)
        #expect(try dialect.read([0x40, 0x02, 0x00, 0x02, 0x40, 0x02, 0x00, 0x01]) == [.acknowledged(id: 42), .acknowledged(id: 41)])
        // A second PUBACK for the same packet, or one for a packet never sent, acknowledges nothing.
        #expect(try dialect.read([0x40, 0x02, 0x00, 0x01, 0x40, 0x02, 0x12, 0x34]) == [])
    }

    @Test func aDeliveryIsRecordedAndAnsweredWithItsPacketID() throws {
        var dialect = try readySession()
        let delivery = MQTTFramer.packet(0x32, MQTTFramer.string("b/3") + [0xAB, 0xCD] + Array("7:xxxx".utf8))
        // One byte at a time: nothing until the packet is whole.
        for byte in delivery.dropLast() { #expect(try dialect.read([byte]) == []) }
        #expect(try dialect.read([delivery.last!]) == [.delivered(id: 7), .answer([0x40, 0x02, 0xAB, 0xCD])])
        // QoS 0: no answer.
        #expect(try dialect.read(MQTTFramer.packet(0x30, MQTTFramer.string("b/3") + Array("8:x".utf8))) == [.delivered(id: 8)])
    }

    @Test func aLongPacketUsesSeveralLengthBytes() throws {
        var framer = MQTTFramer()
        let body = [UInt8](repeating: 0x61, count: 20_000)
        let packet = MQTTFramer.packet(0x30, body)
        #expect(Array(packet[1...3]) == [0xA0, 0x9C, 0x01])  // 20,000 = 0x20 + 0x1C·128 + 1·128²
        #expect(try framer.feed(packet) == [MQTTFramer.Packet(type: 3, flags: 0, body: body)])
    }

    @Test func hostileBytesAreRefused() throws {
        var fiveLengthBytes = MQTTFramer()
        #expect(throws: PeerWireError.self) { try fiveLengthBytes.feed([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]) }
        var oversize = MQTTFramer()
        #expect(throws: PeerWireError.self) { try oversize.feed([0x30, 0xFF, 0xFF, 0xFF, 0x7F]) }
        var unknownType = try readySession()
        #expect(throws: PeerWireError.self) { try unknownType.read([0xF0, 0x00]) }
        var topicPastTheEnd = try readySession()
        #expect(throws: PeerWireError.self) { try topicPastTheEnd.read([0x32, 0x04, 0x00, 0x09, 0x61, 0x62]) }
        var notOurs = try readySession()
        #expect(throws: PeerWireError.self) { try notOurs.read(MQTTFramer.packet(0x30, MQTTFramer.string("b/3") + Array("hello".utf8))) }
        var shortAck = try readySession()
        #expect(throws: PeerWireError.self) { try shortAck.read([0x40, 0x01, 0x00]) }
    }

    @Test func payloadsCarryTheirID() {
        #expect(PeerPayload.make(id: 12, size: 8) == Array("12:xxxxx".utf8))
        #expect(PeerPayload.make(id: 123_456, size: 2) == Array("123456:".utf8))
        #expect(PeerPayload.id(in: Array("12:xxxxx".utf8)) == 12)
        #expect(PeerPayload.id(in: Array(":x".utf8)) == nil)
        #expect(PeerPayload.id(in: Array("12x:".utf8)) == nil)
        #expect(PeerPayload.id(in: Array("12".utf8)) == nil)
        #expect(PeerPayload.id(in: Array("1234567890123456789:".utf8)) == nil)
    }
}
