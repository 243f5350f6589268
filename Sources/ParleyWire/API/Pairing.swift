/// The pairing relay a new device joins by (docs/API.md §13): the server stores what the two devices exchange,
/// all of it public keys or ciphertext, and admits the new device by its token.
extension API {
    static let pairingMethods: [any APIMethod.Type] = [
        AddDevice.self, ListDevices.self, PairingStart.self, PairingWait.self, PairingLookup.self, AuthorizeDevice.self,
        PairingHistoryPut.self, PairingHistoryGet.self, PairingFinish.self,
    ]

    /// The methods a new device uses before it has an account's keys: it never logs in, so the server moves its
    /// connection to the pairing allowance on the first of them.
    public static let newDeviceMethods: Set<String> = [PairingStart.name, PairingWait.name, PairingHistoryGet.name, PairingFinish.name]

    /// The sealed keys box `authorize_device` stores is at most this long.
    public static let maximumPairingKeysBytes = 64 * 1024
    /// One history chunk is at most this long.
    public static let maximumPairingChunkBytes = 256 * 1024
    /// A pairing's whole history is at most this long (`quota_exceeded` past it).
    public static let maximumPairingHistoryBytes = 32 * 1024 * 1024

    /// How far a pairing has come: `waiting` → `sealed` (keys box stored) → `joined` (`add_device` named it) →
    /// `ready` (the last history chunk arrived).
    public enum PairingState: String, Sendable, CaseIterable {
        case waiting, sealed, joined, ready
    }

    /// A pairing's id (in the code the new device shows).
    static func pairID(_ fields: WireFields) throws(WireError) -> UInt32 { try fields.device("pair_id") }

    /// A pairing and the token that admits the new device to it (returned only to its creator).
    public struct PairingTicket: WireBody {
        public var pairID: UInt32
        public var token: [UInt8]
        public init(pairID: UInt32, token: [UInt8]) {
            self.pairID = pairID
            self.token = token
        }
        public init(from fields: WireFields) throws(WireError) {
            pairID = try API.pairID(fields)
            token = try fields.bytes("token", count: 32)
        }
        public var fields: [String: JSONValue] { ["pair_id": .int(pairID), "token": .base64(token)] }
        public static let fieldNames = ["pair_id", "token"]
    }

    /// A request that names a pairing of the caller's own account.
    public struct PairingRef: WireBody {
        public var pairID: UInt32
        public init(pairID: UInt32) { self.pairID = pairID }
        public init(from fields: WireFields) throws(WireError) { pairID = try API.pairID(fields) }
        public var fields: [String: JSONValue] { ["pair_id": .int(pairID)] }
        public static let fieldNames = ["pair_id"]
    }

    /// The new device opens a pairing for an account (`pairing_start`).
    public enum PairingStart: APIMethod {
        public static let name = "pairing_start"
        public static let requiresLogin = false

        public struct Request: WireBody {
            public var email: String
            public var deviceName: String
            /// The new device's ephemeral X25519 public key.
            public var ephemeralKey: [UInt8]
            public init(email: String, deviceName: String, ephemeralKey: [UInt8]) {
                self.email = email
                self.deviceName = deviceName
                self.ephemeralKey = ephemeralKey
            }
            public init(from fields: WireFields) throws(WireError) {
                email = try fields.string("email", maxBytes: maximumEmailBytes)
                deviceName = try fields.string("device_name", maxBytes: 64)
                ephemeralKey = try fields.bytes("ephemeral_key", count: 32)
            }
            public var fields: [String: JSONValue] {
                ["email": .string(email), "device_name": .string(deviceName), "ephemeral_key": .base64(ephemeralKey)]
            }
            public static let fieldNames = ["email", "device_name", "ephemeral_key"]
        }

        public struct Response: WireBody {
            public var pairID: UInt32
            public var token: [UInt8]
            /// Seconds until the server forgets the pairing.
            public var expiresIn: Int64
            public init(pairID: UInt32, token: [UInt8], expiresIn: Int64) {
                self.pairID = pairID
                self.token = token
                self.expiresIn = expiresIn
            }
            public init(from fields: WireFields) throws(WireError) {
                pairID = try API.pairID(fields)
                token = try fields.bytes("token", count: 32)
                expiresIn = try fields.integer("expires_in")
            }
            public var fields: [String: JSONValue] { ["pair_id": .int(pairID), "token": .base64(token), "expires_in": .int(expiresIn)] }
            public static let fieldNames = ["pair_id", "token", "expires_in"]
        }
    }

    /// The pairing's state, answered when it moved past `after_state` / `after_chunks` or after `wait_ms` (`pairing_wait`).
    public enum PairingWait: APIMethod {
        public static let name = "pairing_wait"
        public static let requiresLogin = false
        /// The longest `wait_ms`, under the login timeout of the unauthenticated connection asking.
        public static let maximumWaitMilliseconds: Int64 = 25_000

        public struct Request: WireBody {
            public var ticket: PairingTicket
            /// Answer once the state is no longer this one.
            public var afterState: String?
            /// Answer once more history chunks than this are stored.
            public var afterChunks: Int64?
            /// How long to wait for either (0 when absent: at once).
            public var waitMilliseconds: Int64?

            public init(ticket: PairingTicket, afterState: PairingState? = nil, afterChunks: Int64? = nil, waitMilliseconds: Int64? = nil) {
                self.ticket = ticket
                self.afterState = afterState?.rawValue
                self.afterChunks = afterChunks
                self.waitMilliseconds = waitMilliseconds
            }
            public init(from fields: WireFields) throws(WireError) {
                ticket = try PairingTicket(from: fields)
                afterState = try fields.optionalString("after_state", maxBytes: 16)
                afterChunks = try fields.optionalInteger("after_chunks", in: 0...Int64(maximumPairingHistoryBytes))
                waitMilliseconds = try fields.optionalInteger("wait_ms", in: 0...maximumWaitMilliseconds)
            }
            public var fields: [String: JSONValue] {
                var out = ticket.fields
                out.set("after_state", afterState.map(JSONValue.string))
                out.set("after_chunks", afterChunks.map(JSONValue.int))
                out.set("wait_ms", waitMilliseconds.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["pair_id", "token", "after_state?", "after_chunks?", "wait_ms?"]
        }

        public struct Response: WireBody {
            public var state: PairingState
            /// History chunks stored so far.
            public var historyChunks: Int64
            /// The authorizing device's ephemeral key, from `sealed` on.
            public var ephemeralKey: [UInt8]?
            /// The sealed keys box, from `sealed` on.
            public var keys: [UInt8]?

            public init(state: PairingState, historyChunks: Int64, ephemeralKey: [UInt8]? = nil, keys: [UInt8]? = nil) {
                self.state = state
                self.historyChunks = historyChunks
                self.ephemeralKey = ephemeralKey
                self.keys = keys
            }
            public init(from fields: WireFields) throws(WireError) {
                state = try fields.choice("state")
                historyChunks = try fields.integer("history_chunks")
                ephemeralKey = try fields.optionalBytes("ephemeral_key", maxBytes: 32)
                keys = try fields.optionalBytes("keys", maxBytes: maximumPairingKeysBytes)
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["state": .string(state.rawValue), "history_chunks": .int(historyChunks)]
                out.set("ephemeral_key", ephemeralKey.map(JSONValue.base64))
                out.set("keys", keys.map(JSONValue.base64))
                return out
            }
            public static let fieldNames = ["state", "history_chunks", "ephemeral_key?", "keys?"]
        }
    }

    /// A signed-in device looks up a pairing of its own account by the code's id (`pairing_lookup`).
    public enum PairingLookup: APIMethod {
        public static let name = "pairing_lookup"
        public static let requiresLogin = true
        public typealias Request = PairingRef

        public struct Response: WireBody {
            public var deviceName: String
            public var state: PairingState
            /// The new device's ephemeral key.
            public var ephemeralKey: [UInt8]
            /// The device `add_device` made for this pairing, from `joined` on.
            public var deviceID: UInt32?

            public init(deviceName: String, state: PairingState, ephemeralKey: [UInt8], deviceID: UInt32? = nil) {
                self.deviceName = deviceName
                self.state = state
                self.ephemeralKey = ephemeralKey
                self.deviceID = deviceID
            }
            public init(from fields: WireFields) throws(WireError) {
                deviceName = try fields.string("device_name")
                state = try fields.choice("state")
                ephemeralKey = try fields.bytes("ephemeral_key", count: 32)
                deviceID = fields.has("device_id") ? try fields.device("device_id") : nil
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [
                    "device_name": .string(deviceName), "state": .string(state.rawValue), "ephemeral_key": .base64(ephemeralKey),
                ]
                out.set("device_id", deviceID.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["device_name", "state", "ephemeral_key", "device_id?"]
        }
    }

    /// Stores the account keys sealed to the new device; succeeds once (`authorize_device`).
    public enum AuthorizeDevice: APIMethod {
        public static let name = "authorize_device"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var pairID: UInt32
            /// The authorizing device's ephemeral X25519 public key.
            public var ephemeralKey: [UInt8]
            /// The sealed keys box (FORMATS.md §14).
            public var keys: [UInt8]
            public init(pairID: UInt32, ephemeralKey: [UInt8], keys: [UInt8]) {
                self.pairID = pairID
                self.ephemeralKey = ephemeralKey
                self.keys = keys
            }
            public init(from fields: WireFields) throws(WireError) {
                pairID = try API.pairID(fields)
                ephemeralKey = try fields.bytes("ephemeral_key", count: 32)
                keys = try fields.bytes("keys", maxBytes: maximumPairingKeysBytes)
            }
            public var fields: [String: JSONValue] {
                ["pair_id": .int(pairID), "ephemeral_key": .base64(ephemeralKey), "keys": .base64(keys)]
            }
            public static let fieldNames = ["pair_id", "ephemeral_key", "keys"]
        }
        public typealias Response = NoFields
    }
}
