/// The connection itself: the protocol version, liveness, who is logged in (docs/API.md §1, §3).
extension API {
    static let sessionMethods: [any APIMethod.Type] = [Hello.self, Ping.self, WhoAmI.self]

    /// The client states the protocol version it speaks, first thing on each connection (`hello`).
    public enum Hello: APIMethod {
        public static let name = "hello"
        public static let requiresLogin = false

        public struct Request: WireBody {
            /// The protocol version the client speaks (`protocol`).
            public var protocolVersion: Int64
            /// The client software's name, for logs.
            public var client: String?

            public init(protocolVersion: Int64 = Int64(WireProtocol.version), client: String? = nil) {
                self.protocolVersion = protocolVersion
                self.client = client
            }
            public init(from fields: WireFields) throws(WireError) {
                protocolVersion = try fields.integer("protocol", in: 1...1_000_000)
                client = try fields.optionalString("client", maxBytes: 64)
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["protocol": .int(protocolVersion)]
                out.set("client", client.map(JSONValue.string))
                return out
            }
            public static let fieldNames = ["protocol", "client?"]
        }

        public struct Response: WireBody {
            /// The protocol version the server speaks (`protocol`).
            public var protocolVersion: Int64
            public init(protocolVersion: Int64 = Int64(WireProtocol.version)) { self.protocolVersion = protocolVersion }
            public init(from fields: WireFields) throws(WireError) { protocolVersion = try fields.integer("protocol") }
            public var fields: [String: JSONValue] { ["protocol": .int(protocolVersion)] }
            public static let fieldNames = ["protocol"]
        }
    }

    /// Checks the connection answers; says the server's time (`ping`).
    public enum Ping: APIMethod {
        public static let name = "ping"
        public static let requiresLogin = false
        public typealias Request = NoFields

        public struct Response: WireBody {
            /// The server's time, ms since the epoch.
            public var time: Int64
            public init(time: Int64) { self.time = time }
            public init(from fields: WireFields) throws(WireError) { time = try fields.integer("time") }
            public var fields: [String: JSONValue] { ["time": .int(time)] }
            public static let fieldNames = ["time"]
        }
    }

    /// The account and device this connection is logged in as (`whoami`).
    public enum WhoAmI: APIMethod {
        public static let name = "whoami"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public typealias Response = AccountDevice
    }
}
