import Foundation
import ParleyTestSupport
@testable import ParleyWire
import Testing

/// The cluster event payload (docs/SCALING.md §2) against vectors written by an independent script
/// (scripts/vectors/parley_cluster_vectors.py), and its splitting at PostgreSQL's payload limit.
@Suite("Cluster event payload")
struct ClusterBatchTests {
    struct VectorFile: Decodable {
        struct Valid: Decodable {
            struct Event: Decodable {
                let account: Int64
                let device: UInt32?
                let except: UInt32?
                let event: String?
                let fields: [String: JSONValue]?
            }
            let description: String
            let payload: String
            let node: String
            let events: [Event]
        }
        struct Peer: Decodable {
            let description: String
            let payload: String
            let node: String
            let kind: String
            let target: String?
        }
        struct Invalid: Decodable {
            let description: String
            let payload: String
        }
        let valid: [Valid]
        let peer: [Peer]
        let invalid: [Invalid]
    }

    static let vectors: VectorFile = try! Vectors.load("cluster-batch", from: .module)

    static func events(_ vector: VectorFile.Valid) -> [ClusterEvent] {
        vector.events.map { event in
            let action: ClusterEvent.Action = event.event.map { .notify(event: $0, fields: event.fields ?? [:]) } ?? .disconnect
            return ClusterEvent(accountID: event.account, deviceID: event.device, exceptDevice: event.except, action: action)
        }
    }

    @Test("valid vectors parse to their events, and the events encode to the vector's exact bytes")
    func validVectors() throws {
        #expect(Self.vectors.valid.count == 3)
        for vector in Self.vectors.valid {
            let expected = ClusterBatch(node: vector.node, events: Self.events(vector))
            #expect(ClusterBatch.parse(vector.payload) == expected, "\(vector.description)")
            #expect(try expected.payload() == vector.payload, "\(vector.description)")
            let split = ClusterBatch.payloads(node: vector.node, events: expected.events)
            #expect(split.payloads == [ClusterBatch.Payload(text: vector.payload, events: expected.events.count)])
        }
    }

    @Test("peer notices parse to a batch with no events, and encode to the vector's exact bytes")
    func peerVectors() throws {
        #expect(Self.vectors.peer.count == 2)
        for vector in Self.vectors.peer {
            let notice: ClusterBatch.PeerNotice = try #require(vector.kind == "hello" ? .hello : vector.target.map { .heard(node: $0) })
            #expect(ClusterBatch.parse(vector.payload) == ClusterBatch(node: vector.node, events: [], peer: notice), "\(vector.description)")
            #expect(ClusterBatch.payload(node: vector.node, notice) == vector.payload, "\(vector.description)")
            #expect(try ClusterBatch(node: vector.node, events: [], peer: notice).payload() == vector.payload, "\(vector.description)")
        }
    }

    @Test("invalid vectors are refused without a crash")
    func invalidVectors() {
        #expect(Self.vectors.invalid.count >= 15)
        for vector in Self.vectors.invalid {
            #expect(ClusterBatch.parse(vector.payload) == nil, "\(vector.description)")
        }
    }

    @Test("a burst splits into payloads under the limit, in order; an event too large alone is left out and counted")
    func splitting() throws {
        let events = (0..<500).map { index in
            ClusterEvent(accountID: Int64(index), exceptDevice: 1, action: .notify(event: "new_message", fields: [
                "conversation_id": .number(Double(index)), "message_id": .number(Double(100_000 + index)),
            ]))
        }
        let huge = ClusterEvent(accountID: 1, action: .notify(event: "x", fields: ["blob": .string(String(repeating: "a", count: 8_000))]))
        var all = events
        all.insert(huge, at: 250)
        let (payloads, tooLarge) = ClusterBatch.payloads(node: "node-a", events: all)
        #expect(tooLarge == 1)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.text.utf8.count <= ClusterBatch.maximumBytes })
        let decoded = payloads.flatMap { ClusterBatch.parse($0.text)?.events ?? [] }
        #expect(decoded == events)
        #expect(payloads.map(\.events).reduce(0, +) == events.count)
    }

    @Test("a disconnect targets a device or every device but one")
    func targeting() {
        let one = ClusterEvent(accountID: 1, deviceID: 2, action: .disconnect)
        #expect(one.targets(device: 2) && !one.targets(device: 3))
        let allBut = ClusterEvent(accountID: 1, exceptDevice: 2, action: .disconnect)
        #expect(!allBut.targets(device: 2) && allBut.targets(device: 3))
    }
}
