import Foundation

/// Events one node sends in one `NOTIFY`: a versioned JSON object, `{"v":1,"n":NODE,"e":[EVENT,…]}`
/// (docs/SCALING.md §2), at most `maximumBytes` long because PostgreSQL refuses payloads of 8000
/// bytes or more. A node's word about itself (`PeerNotice`, §2.1) travels in the same object, with no events.
public struct ClusterBatch: Sendable, Equatable, Decodable {
    /// The payload format this code writes and reads.
    public static let version = 1
    /// The longest payload sent; PostgreSQL's limit is 7999 bytes.
    public static let maximumBytes = 7_000

    /// The node that sent the batch (a node ignores its own).
    public var node: String
    /// The events, in the order they were raised.
    public var events: [ClusterEvent]
    /// What the sending node says of itself, if anything (docs/SCALING.md §2.1).
    public var peer: PeerNotice?

    /// What a node says of itself to the others: that it listens now and wants events (`hello`), or that it heard
    /// another node's hello and relays to it from now on (`heard`).
    public enum PeerNotice: Sendable, Equatable {
        case hello
        case heard(node: String)
    }

    /// A batch from `node`.
    public init(node: String, events: [ClusterEvent], peer: PeerNotice? = nil) {
        self.node = node
        self.events = events
        self.peer = peer
    }

    private enum CodingKeys: String, CodingKey {
        case version = "v", node = "n", events = "e", peer = "p"  // written by `assemble`, in this sorted order
    }

    /// `"p"`'s object: `{"k":"hello"}` or `{"k":"heard","t":NODE}`.
    private struct PeerWire: Decodable {
        let k: String
        let t: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "unsupported cluster payload version \(version)")
        }
        node = try container.decode(String.self, forKey: .node)
        events = try container.decode([ClusterEvent].self, forKey: .events)
        guard let wire = try container.decodeIfPresent(PeerWire.self, forKey: .peer) else {
            peer = nil
            return
        }
        switch (wire.k, wire.t) {
        case ("hello", nil): peer = .hello
        case ("heard", let target?): peer = .heard(node: target)
        default: throw DecodingError.dataCorruptedError(forKey: .peer, in: container, debugDescription: "not a peer notice of this version")
        }
    }

    /// The payload of `node`'s `notice`: no events, `"p"` between `"n"` and `"v"` in the sorted order.
    public static func payload(node: String, _ notice: PeerNotice) -> String {
        assemble(node: node, [], peer: notice)
    }

    /// `"p"`'s object, keys sorted.
    private static func encoded(_ notice: PeerNotice) -> String {
        switch notice {
        case .hello: "{\"k\":\"hello\"}"
        case .heard(let target): "{\"k\":\"heard\",\"t\":" + quoted(target) + "}"
        }
    }

    /// The payload text.
    public func payload() throws -> String {
        let parts = try events.map { try Self.encoded($0) }
        return Self.assemble(node: node, parts, peer: peer)
    }

    /// Reads a payload; nil for anything that is not a batch of this version (logged by the caller, never fatal).
    public static func parse(_ payload: String) -> ClusterBatch? {
        guard payload.utf8.count < 8_000 else { return nil }
        return try? JSONDecoder().decode(ClusterBatch.self, from: Data(payload.utf8))
    }

    /// One payload ready to send, and how many events it carries.
    public struct Payload: Sendable, Equatable {
        public var text: String
        public var events: Int
    }

    /// Splits `events` into payloads of at most `maximumBytes`, in order; an event too large to send
    /// alone is left out and counted (notifications are hints: the client's next sync finds what it announced).
    public static func payloads(node: String, events: [ClusterEvent]) -> (payloads: [Payload], tooLarge: Int) {
        let overhead = assemble(node: node, []).utf8.count
        var payloads: [Payload] = []
        var tooLarge = 0
        var pending: [String] = []
        var size = overhead
        for event in events {
            guard let part = try? encoded(event), overhead + part.utf8.count <= maximumBytes else {
                tooLarge += 1
                continue
            }
            if !pending.isEmpty, size + 1 + part.utf8.count > maximumBytes {
                payloads.append(Payload(text: assemble(node: node, pending), events: pending.count))
                pending = []
                size = overhead
            }
            size += part.utf8.count + (pending.isEmpty ? 0 : 1)
            pending.append(part)
        }
        if !pending.isEmpty { payloads.append(Payload(text: assemble(node: node, pending), events: pending.count)) }
        return (payloads, tooLarge)
    }

    /// One event as compact JSON with sorted keys.
    private static func encoded(_ event: ClusterEvent) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(event), as: UTF8.self)
    }

    /// The batch object around already encoded events, keys in sorted order like the events'.
    private static func assemble(node: String, _ parts: [String], peer: PeerNotice? = nil) -> String {
        "{\"e\":[" + parts.joined(separator: ",") + "],\"n\":" + quoted(node) + (peer.map { ",\"p\":" + encoded($0) } ?? "")
            + ",\"v\":\(version)}"
    }

    /// A JSON string, as the events' encoder writes it.
    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
