/// MQTT 3.1.1 with QoS 1 (Mosquitto): each connection subscribes to its own topic `b/INDEX` and publishes to its
/// partner's; the broker's PUBACK is the acknowledgement, and each delivery is answered with a PUBACK.
package struct MQTTDialect: PeerDialect {
    private let index: Int
    private var framer = MQTTFramer()
    private var nextPacketID: UInt16 = 1
    /// Packet id → message id of publications the broker has not acknowledged yet.
    private var unacknowledged: [UInt16: Int] = [:]

    package init(index: Int) { self.index = index }

    package var acknowledges: Bool { true }
    private var topic: String { "b/\(index)" }

    package mutating func opening() -> [UInt8] {
        // CONNECT (§3.1): protocol "MQTT" level 4, clean session, no keep-alive, client id.
        let connect = MQTTFramer.string("MQTT") + [0x04, 0x02, 0x00, 0x00] + MQTTFramer.string("bench-\(index)")
        return MQTTFramer.packet(0x10, connect)
    }

    package mutating func read(_ bytes: [UInt8]) throws(PeerWireError) -> [PeerEvent] {
        var events: [PeerEvent] = []
        for packet in try framer.feed(bytes) {
            switch packet.type {
            case 2:  // CONNACK: subscribe once accepted.
                guard packet.body.count == 2, packet.body[1] == 0 else {
                    throw PeerWireError("the broker refused the connection (CONNACK \(packet.body.last ?? 0xFF))")
                }
                events.append(.answer(MQTTFramer.packet(0x82, [0x00, 0x01] + MQTTFramer.string(topic) + [0x01])))
            case 9:  // SUBACK
                guard packet.body.count == 3, packet.body[2] <= 2 else { throw PeerWireError("the broker refused the subscription") }
                events.append(.ready(address: topic))
            case 3:  // PUBLISH from the broker: a delivery.
                events += try delivery(packet)
            case 4:  // PUBACK for one of ours.
                guard packet.body.count == 2 else { throw PeerWireError("a PUBACK of \(packet.body.count) bytes") }
                let packetID = UInt16(packet.body[0]) << 8 | UInt16(packet.body[1])
                if let id = unacknowledged.removeValue(forKey: packetID) { events.append(.acknowledged(id: id)) }
            default:
                throw PeerWireError("an MQTT packet of type \(packet.type) the benchmark does not expect")
            }
        }
        return events
    }

    package mutating func publish(id: Int, size: Int, to address: String) -> [UInt8] {
        let packetID = nextPacketID
        nextPacketID = nextPacketID == .max ? 1 : nextPacketID + 1
        unacknowledged[packetID] = id
        let body = MQTTFramer.string(address) + [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] + PeerPayload.make(id: id, size: size)
        return MQTTFramer.packet(0x32, body)
    }

    /// A PUBLISH the broker sent (§3.3): the topic, a packet id at QoS 1 or 2, the payload.
    private func delivery(_ packet: MQTTFramer.Packet) throws(PeerWireError) -> [PeerEvent] {
        let qos = (packet.flags >> 1) & 0x03
        let body = packet.body
        guard qos < 3, body.count >= 2 else { throw PeerWireError("a PUBLISH without its topic") }
        let topicEnd = 2 + (Int(body[0]) << 8 | Int(body[1]))
        let payloadStart = topicEnd + (qos > 0 ? 2 : 0)
        guard payloadStart <= body.count else { throw PeerWireError("a PUBLISH cut short") }
        guard let id = PeerPayload.id(in: body[payloadStart...]) else { throw PeerWireError("a PUBLISH that is not the benchmark's") }
        var events: [PeerEvent] = [.delivered(id: id)]
        if qos == 1 { events.append(.answer([0x40, 0x02, body[topicEnd], body[topicEnd + 1]])) }
        return events
    }
}
