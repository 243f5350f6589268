/// The history archive a signed-in device sends a new one through the pairing, in sealed chunks, and the
/// pairing's end (docs/API.md §13).
extension API {
    /// Appends the next sealed history chunk; `seq` must be the number stored so far (`pairing_history_put`).
    public enum PairingHistoryPut: APIMethod {
        public static let name = "pairing_history_put"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var pairID: UInt32
            public var seq: Int64
            public var chunk: [UInt8]
            /// Whether this is the last chunk.
            public var last: Bool
            public init(pairID: UInt32, seq: Int64, chunk: [UInt8], last: Bool) {
                self.pairID = pairID
                self.seq = seq
                self.chunk = chunk
                self.last = last
            }
            public init(from fields: WireFields) throws(WireError) {
                pairID = try API.pairID(fields)
                seq = try fields.integer("seq", in: 0...Int64(maximumPairingHistoryBytes))
                chunk = try fields.bytes("chunk", maxBytes: maximumPairingChunkBytes)
                last = try fields.bool("last")
            }
            public var fields: [String: JSONValue] {
                ["pair_id": .int(pairID), "seq": .int(seq), "chunk": .base64(chunk), "last": .bool(last)]
            }
            public static let fieldNames = ["pair_id", "seq", "chunk", "last"]
        }

        public struct Response: WireBody {
            /// Chunks stored now.
            public var stored: Int64
            public init(stored: Int64) { self.stored = stored }
            public init(from fields: WireFields) throws(WireError) { stored = try fields.integer("stored") }
            public var fields: [String: JSONValue] { ["stored": .int(stored)] }
            public static let fieldNames = ["stored"]
        }
    }

    /// The new device reads one history chunk (`pairing_history_get`).
    public enum PairingHistoryGet: APIMethod {
        public static let name = "pairing_history_get"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var ticket: PairingTicket
            public var seq: Int64
            public init(ticket: PairingTicket, seq: Int64) {
                self.ticket = ticket
                self.seq = seq
            }
            public init(from fields: WireFields) throws(WireError) {
                ticket = try PairingTicket(from: fields)
                seq = try fields.integer("seq", in: 0...Int64(maximumPairingHistoryBytes))
            }
            public var fields: [String: JSONValue] {
                var out = ticket.fields
                out["seq"] = .int(seq)
                return out
            }
            public static let fieldNames = ["pair_id", "token", "seq"]
        }

        public struct Response: WireBody {
            public var chunk: [UInt8]
            public var last: Bool
            public init(chunk: [UInt8], last: Bool) {
                self.chunk = chunk
                self.last = last
            }
            public init(from fields: WireFields) throws(WireError) {
                chunk = try fields.bytes("chunk", maxBytes: maximumPairingChunkBytes)
                last = try fields.bool("last")
            }
            public var fields: [String: JSONValue] { ["chunk": .base64(chunk), "last": .bool(last)] }
            public static let fieldNames = ["chunk", "last"]
        }
    }

    /// The new device is done: the pairing and its chunks are deleted (`pairing_finish`).
    public enum PairingFinish: APIMethod {
        public static let name = "pairing_finish"
        public static let requiresLogin = false
        public typealias Request = PairingTicket
        public typealias Response = NoFields
    }
}
