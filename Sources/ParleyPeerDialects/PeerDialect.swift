/// One peer server's protocol as the benchmark speaks it (scripts/bench/compare, docs/PERFORMANCE.md): the bytes
/// that open a session, the bytes that publish one message to another connection, and what the server's bytes mean.
///
/// A dialect is a value with no I/O, so its tests feed it a server's bytes and read back what it would answer.
/// Every message the benchmark sends carries its id as decimal digits and a colon at the start of its payload.
package protocol PeerDialect: Sendable {
    /// The bytes to write once the TCP connection is up.
    mutating func opening() -> [UInt8]
    /// Reads the server's bytes; returns what they meant, in order. Throws on bytes the protocol does not allow.
    mutating func read(_ bytes: [UInt8]) throws(PeerWireError) -> [PeerEvent]
    /// The bytes that send message `id`, `size` bytes of payload, to the connection whose address is `address`.
    mutating func publish(id: Int, size: Int, to address: String) -> [UInt8]
    /// Whether the server acknowledges each publication (`PeerEvent.acknowledged`); if not, a message counts as
    /// acknowledged once written.
    var acknowledges: Bool { get }
}

/// What a peer server's bytes meant.
package enum PeerEvent: Equatable {
    /// The session is set up; others send to this connection at `address` (a topic, a subject, a JID).
    case ready(address: String)
    /// A message from another connection arrived.
    case delivered(id: Int)
    /// The server took message `id` (MQTT's PUBACK, JetStream's publish acknowledgement).
    case acknowledged(id: Int)
    /// The server refused message `id`.
    case refused(id: Int, reason: String)
    /// Bytes to write back at once (MQTT's PUBACK for a delivery, NATS's PONG, XMPP's next step).
    case answer([UInt8])
}

/// A peer server's bytes that the benchmark cannot read, or a refusal of the session.
package struct PeerWireError: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The benchmark payload: the message id in decimal, a colon, then filler up to `size` bytes (at least the id).
package enum PeerPayload {
    package static func make(id: Int, size: Int) -> [UInt8] {
        let head = Array("\(id):".utf8)
        return head + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - head.count))
    }

    /// The id at the start of `payload`, or nil when it does not start with digits and a colon.
    package static func id(in payload: some Collection<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        for byte in payload {
            if byte == UInt8(ascii: ":") { return digits > 0 ? value : nil }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 18 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return nil
    }
}
