/// Prekey bundles and prekey upkeep (docs/API.md §4).
extension API {
    static let keyMethods: [any APIMethod.Type] = [GetKeyBundle.self, GetIdentityKeys.self, EnsurePreKeys.self, GetPreKeyCount.self]

    /// The most devices a list on the wire is read with (a reader's bound against a hostile server, not a limit
    /// the server sets: accounts have far fewer). A message reaches at most `SendMessage.maximumEnvelopes` devices,
    /// so a longer list could only make a client start sessions it can never use (a bundle with a post-quantum
    /// prekey is about 2.3 KB, so a 128 MiB answer could list 55,000 devices, each a PQXDH).
    public static let maximumListedDevices = SendMessage.maximumEnvelopes

    /// One device's public prekeys as `get_key_bundle` hands them out.
    public struct DeviceBundle: WireBody {
        public var deviceID: UInt32
        public var signed: SignedPreKey
        public var pq: SignedPreKey
        /// The one-time prekey this fetch consumed (`opk_id`, `opk`); nil when the device had none left.
        public var oneTime: OneTimePreKey?

        public init(deviceID: UInt32, signed: SignedPreKey, pq: SignedPreKey, oneTime: OneTimePreKey? = nil) {
            self.deviceID = deviceID
            self.signed = signed
            self.pq = pq
            self.oneTime = oneTime
        }
        public init(from fields: WireFields) throws(WireError) {
            deviceID = try fields.device("device_id")
            signed = try SignedPreKey(from: fields, prefix: "spk", keyLength: SignedPreKey.x25519Length)
            pq = try SignedPreKey(from: fields, prefix: "pqspk", keyLength: SignedPreKey.mlkem768Length)
            oneTime = nil
            if fields.has("opk") || fields.has("opk_id") {
                oneTime = OneTimePreKey(
                    id: UInt32(try fields.integer("opk_id", in: 0...Int64(UInt32.max - 1))),
                    key: try fields.bytes("opk", count: SignedPreKey.x25519Length))
            }
        }
        public var fields: [String: JSONValue] {
            var out = signed.fields(prefix: "spk").merging(pq.fields(prefix: "pqspk")) { _, new in new }
            out["device_id"] = .int(deviceID)
            if let oneTime {
                out["opk_id"] = .int(oneTime.id)
                out["opk"] = .base64(oneTime.key)
            }
            return out
        }
        public static let fieldNames =
            ["device_id"] + SignedPreKey.fieldNames(prefix: "spk") + SignedPreKey.fieldNames(prefix: "pqspk") + ["opk_id?", "opk?"]
    }

    /// Someone's identity key and one prekey bundle per device, by e-mail or by account id; each fetch
    /// consumes one one-time prekey per device (`get_key_bundle`).
    public enum GetKeyBundle: APIMethod {
        public static let name = "get_key_bundle"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// The account by id (group members, devices a `stale_devices` answer reported); wins over `email`.
            public var accountID: Int64?
            /// The account by e-mail address (starting a conversation); required when `accountID` is nil.
            public var email: String?

            /// The bundles of the account `accountID`.
            public init(accountID: Int64) {
                self.accountID = accountID
                self.email = nil
            }
            /// The bundles of the account with `email`.
            public init(email: String) {
                self.accountID = nil
                self.email = email
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.optionalInteger("account_id", in: 1...Int64(1 << 53))
                email = accountID == nil ? try fields.string("email", maxBytes: 254) : nil
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("account_id", accountID.map(JSONValue.int))
                out.set("email", email.map(JSONValue.string))
                return out
            }
            public static let fieldNames = ["account_id?", "email?"]
        }

        public struct Response: WireBody {
            public var accountID: Int64
            public var identityKey: [UInt8]
            public var devices: [DeviceBundle]

            public init(accountID: Int64, identityKey: [UInt8], devices: [DeviceBundle]) {
                self.accountID = accountID
                self.identityKey = identityKey
                self.devices = devices
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                identityKey = try fields.bytes("identity_key", count: 32)
                devices = try fields.list("devices", maxCount: maximumListedDevices)
            }
            public var fields: [String: JSONValue] {
                ["account_id": .int(accountID), "identity_key": .base64(identityKey), "devices": .list(devices)]
            }
            public static let fieldNames = ["account_id", "identity_key", "devices"]
        }
    }

    /// The current identity keys of the caller's contacts, by account id, consuming nothing (`get_identity_keys`):
    /// how a device that was away learns that a contact rotated their keys (`keys_updated` reaches only connected ones).
    public enum GetIdentityKeys: APIMethod {
        public static let name = "get_identity_keys"
        public static let requiresLogin = true
        /// Accounts asked for in one request, at most.
        public static let maximumAccounts = 500

        public struct Request: WireBody {
            public var accountIDs: [Int64]

            public init(accountIDs: [Int64]) {
                self.accountIDs = accountIDs
            }
            public init(from fields: WireFields) throws(WireError) {
                accountIDs = try fields.integers("account_ids", maxCount: maximumAccounts, in: 1...Int64(1 << 53))
            }
            public var fields: [String: JSONValue] { ["account_ids": .ints(accountIDs)] }
            public static let fieldNames = ["account_ids"]
        }

        /// One account's current identity key.
        public struct Entry: WireBody, Equatable {
            public var accountID: Int64
            public var identityKey: [UInt8]

            public init(accountID: Int64, identityKey: [UInt8]) {
                self.accountID = accountID
                self.identityKey = identityKey
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id", in: 1...Int64(1 << 53))
                identityKey = try fields.bytes("identity_key", count: 32)
            }
            public var fields: [String: JSONValue] { ["account_id": .int(accountID), "identity_key": .base64(identityKey)] }
            public static let fieldNames = ["account_id", "identity_key"]
        }

        public struct Response: WireBody {
            /// The asked-for accounts that share a conversation with the caller and are active; the others are left out.
            public var keys: [Entry]

            public init(keys: [Entry]) {
                self.keys = keys
            }
            public init(from fields: WireFields) throws(WireError) {
                keys = try fields.list("keys", maxCount: maximumAccounts)
            }
            public var fields: [String: JSONValue] { ["keys": .list(keys)] }
            public static let fieldNames = ["keys"]
        }
    }

    /// Adds one-time prekeys for the calling device and optionally replaces its signed and post-quantum
    /// prekeys (`ensure_prekeys`).
    public enum EnsurePreKeys: APIMethod {
        public static let name = "ensure_prekeys"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// A new signed prekey (`spk*`), when it is replaced.
            public var signed: SignedPreKey?
            /// A new post-quantum prekey (`pqspk*`), when it is replaced.
            public var pq: SignedPreKey?
            /// One-time prekeys to add (the field is required, possibly empty).
            public var oneTime: [OneTimePreKey]

            public init(signed: SignedPreKey? = nil, pq: SignedPreKey? = nil, oneTime: [OneTimePreKey] = []) {
                self.signed = signed
                self.pq = pq
                self.oneTime = oneTime
            }
            public init(from fields: WireFields) throws(WireError) {
                signed = fields.sent("spk") ? try SignedPreKey(from: fields, prefix: "spk", keyLength: SignedPreKey.x25519Length) : nil
                pq = fields.sent("pqspk") ? try SignedPreKey(from: fields, prefix: "pqspk", keyLength: SignedPreKey.mlkem768Length) : nil
                oneTime = try OneTimePreKey.list(from: fields)
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["one_time_prekeys": .list(oneTime)]
                if let signed { out.merge(signed.fields(prefix: "spk")) { _, new in new } }
                if let pq { out.merge(pq.fields(prefix: "pqspk")) { _, new in new } }
                return out
            }
            public static let fieldNames = SignedPreKey.fieldNames(prefix: "spk", optional: true)
                + SignedPreKey.fieldNames(prefix: "pqspk", optional: true) + ["one_time_prekeys"]
        }
        public typealias Response = PreKeyCount
    }

    /// How many one-time prekeys the calling device still has on the server (`get_prekey_count`).
    public enum GetPreKeyCount: APIMethod {
        public static let name = "get_prekey_count"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public typealias Response = PreKeyCount
    }

    /// The calling device's one-time prekeys left on the server.
    public struct PreKeyCount: WireBody {
        public var count: Int64
        public init(count: Int64) { self.count = count }
        public init(from fields: WireFields) throws(WireError) { count = try fields.integer("count") }
        public var fields: [String: JSONValue] { ["count": .int(count)] }
        public static let fieldNames = ["count"]
    }
}
