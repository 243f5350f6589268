/// A new device joining an account, and the account's device list (docs/API.md §13); the pairing relay that
/// comes before `add_device` is in Pairing.swift.
extension API {
    /// Adds the calling connection as a new device, proving the account's auth key over a `login_start`
    /// nonce of device 0, and logs it in (`add_device`).
    public enum AddDevice: APIMethod {
        public static let name = "add_device"
        public static let requiresLogin = false
        /// An account holds at most this many devices; `add_device` past it (and `authorize_device`, which
        /// would lead there) is answered `quota_exceeded`. Every message to a person carries an envelope for each of
        /// their devices, so the bound also keeps a 1:1 message well inside `SendMessage.maximumEnvelopes`.
        public static let maximumDevicesPerAccount = 32
        /// What the auth key signs before the nonce, e-mail and name.
        public static let signatureContext = Array("Parley-add-device-v1".utf8)

        /// The message the auth key signs: context ‖ nonce ‖ email ‖ name (UTF-8).
        public static func signedMessage(nonce: [UInt8], email: String, name: String) -> [UInt8] {
            signatureContext + nonce + Array(email.utf8) + Array(name.utf8)
        }

        public struct Request: WireBody {
            public var email: String
            /// The new device's name.
            public var name: String
            public var nonce: [UInt8]
            public var signature: [UInt8]
            /// The pairing the device joins by, if any (a recovery joins without one).
            public var pairing: PairingTicket?
            public var preKeys: PreKeys

            public init(email: String, name: String, nonce: [UInt8], signature: [UInt8], pairing: PairingTicket? = nil, preKeys: PreKeys) {
                self.email = email
                self.name = name
                self.nonce = nonce
                self.signature = signature
                self.pairing = pairing
                self.preKeys = preKeys
            }
            public init(from fields: WireFields) throws(WireError) {
                email = try fields.string("email", maxBytes: maximumEmailBytes)
                name = try fields.string("name", maxBytes: 64)
                nonce = try fields.bytes("nonce", count: LoginChallenge.nonceLength)
                signature = try fields.bytes("signature", count: 64)
                pairing = fields.has("pair_id") ? try PairingTicket(from: fields) : nil
                preKeys = try PreKeys(from: fields)
            }
            public var fields: [String: JSONValue] {
                var out = preKeys.fields
                out["email"] = .string(email)
                out["name"] = .string(name)
                out["nonce"] = .base64(nonce)
                out["signature"] = .base64(signature)
                if let pairing { out.merge(pairing.fields) { _, new in new } }
                return out
            }
            public static let fieldNames = ["email", "name", "nonce", "signature", "pair_id?", "token?"] + PreKeys.fieldNames
        }

        public struct Response: WireBody {
            public var accountID: Int64
            public var deviceID: UInt32
            /// When the device was made (ms); its history before then comes from the archive.
            public var createdAt: Int64
            public init(accountID: Int64, deviceID: UInt32, createdAt: Int64) {
                self.accountID = accountID
                self.deviceID = deviceID
                self.createdAt = createdAt
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                deviceID = try fields.device("device_id")
                createdAt = try fields.integer("created_at")
            }
            public var fields: [String: JSONValue] {
                ["account_id": .int(accountID), "device_id": .int(deviceID), "created_at": .int(createdAt)]
            }
            public static let fieldNames = ["account_id", "device_id", "created_at"]
        }
    }

    /// One device of the caller's account.
    public struct DeviceEntry: WireBody {
        public var deviceID: UInt32
        public var name: String
        /// When it was added (ms).
        public var createdAt: Int64
        /// Its last login or disconnect (ms; its creation until then).
        public var lastSeen: Int64
        public init(deviceID: UInt32, name: String, createdAt: Int64, lastSeen: Int64) {
            self.deviceID = deviceID
            self.name = name
            self.createdAt = createdAt
            self.lastSeen = lastSeen
        }
        public init(from fields: WireFields) throws(WireError) {
            deviceID = try fields.device("device_id")
            name = try fields.string("name")
            createdAt = try fields.integer("created_at")
            lastSeen = try fields.integer("last_seen")
        }
        public var fields: [String: JSONValue] {
            ["device_id": .int(deviceID), "name": .string(name), "created_at": .int(createdAt), "last_seen": .int(lastSeen)]
        }
        public static let fieldNames = ["device_id", "name", "created_at", "last_seen"]
    }

    /// The caller's account's devices (`list_devices`).
    public enum ListDevices: APIMethod {
        public static let name = "list_devices"
        public static let requiresLogin = true
        public typealias Request = NoFields

        public struct Response: WireBody {
            public var devices: [DeviceEntry]
            public init(devices: [DeviceEntry]) { self.devices = devices }
            public init(from fields: WireFields) throws(WireError) { devices = try fields.list("devices", maxCount: maximumListedDevices) }
            public var fields: [String: JSONValue] { ["devices": .list(devices)] }
            public static let fieldNames = ["devices"]
        }
    }
}
